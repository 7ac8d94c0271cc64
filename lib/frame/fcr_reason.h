/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Why a frame is not a valid FCoE frame, or why the dataplane dropped it.
 * One list for the parser, the login snooper and the dataplane's drop
 * counters: each name is the counter's name in `show fwd stats` and
 * telemetry, so keep them stable.
 */
#ifndef FCR_REASON_H
#define FCR_REASON_H

/* X(identifier, "counter_name", "what it means") */
#define FCR_REASON_LIST(X) \
	X(OK, "ok", "valid FCoE frame") \
	X(RUNT, "runt", "shorter than an Ethernet header") \
	X(TRUNC_VLAN, "trunc_vlan", "802.1Q tag cut short") \
	X(VLAN_STACKED, "vlan_stacked", "more than one VLAN tag") \
	X(NOT_FCOE, "not_fcoe", "EtherType is not FCoE (0x8906)") \
	X(TRUNC_FCOE_HDR, "trunc_fcoe_hdr", "FCoE header cut short") \
	X(BAD_VERSION, "bad_version", "FCoE version is not 0") \
	X(BAD_RESERVED, "bad_reserved", "FCoE header reserved bytes not zero (pre-standard format)") \
	X(BAD_SOF, "bad_sof", "unknown SOF code") \
	X(TRUNC_FC_HDR, "trunc_fc_hdr", "FC header cut short") \
	X(NO_TRAILER, "no_trailer", "no room for the CRC/EOF trailer") \
	X(BAD_EOF, "bad_eof", "unknown EOF code") \
	X(BAD_TRAILER, "bad_trailer", "trailer reserved bytes not zero") \
	X(BAD_LENGTH, "bad_length", "FC frame length not a multiple of 4") \
	X(TOO_LONG, "too_long", "FC payload longer than 2112 bytes") \
	X(BAD_FILL, "bad_fill", "fill byte count larger than the payload") \
	X(BAD_CRC, "bad_crc", "FC CRC does not match") \
	X(TRUNC_PAYLOAD, "trunc_payload", "payload shorter than its protocol needs") \
	X(BAD_PAYLOAD, "bad_payload", "payload contradicts its own length or kind") \
	X(NO_ROUTE, "no_route", "no route for the frame's (final) D_ID") \
	X(NO_PORT, "no_port", "the route's egress port does not exist") \
	X(FABRIC_LOOP, "fabric_loop", "frame from a fabric port whose route leads back out of that port: the FCF would send it straight back") \
	X(NO_PASSTHROUGH, "no_passthrough", "FIP or other EtherType on a port with no pass-through peer") \
	X(FCF_FC_MAP, "fcf_fc_map", "FIP advertisement from a fabric port naming another FC-MAP than --vlan-fc-map gives its VLAN: the FCF is not learned and no ENode hears it") \
	X(CLEARTEXT, "cleartext", "data frame on a VI-to-target leg that does not look encrypted (--cleartext-guard=drop): the service node passed the host's data in the clear") \
	X(SPLIT_HEADER, "split_header", "headers not in the first mbuf segment") \
	X(REDIRECT_NOT_READY, "redirect_not_ready", "host-target frame of a redirect that is not active") \
	X(REDIRECT_HIDDEN, "redirect_hidden", "target-to-VI or host-to-VT frame while their redirect is active: the ends never meet the service node") \
	X(NOT_LOGGED_IN, "not_logged_in", "FCoE frame on an edge port from a (VLAN, MAC, S_ID) that did not log in through it") \
	X(ENODE_WRONG_PORT, "enode_wrong_port", "FIP frame or fabric login on an edge port from an ENode MAC that logged in through another edge port (until that ENode times out)") \
	X(LOGIN_REFUSED, "login_refused", "a fabric login reply with nowhere to go once applied: its request's port not known (a login not learned here: login_conflicts, logins_pinned, no room) and its route back into the fabric port it came from") \
	X(CUTOVER_HELD, "cutover_held", "FCP command of a pair in a cutover, held until the pair's open exchanges have ended: its initiator retries it once logged in again") \
	X(CUTOVER_NEW_EXCHANGE, "cutover_new_exchange", "any other frame of an exchange whose FCP command was held in a cutover (cutover_held): an exchange begun after the pair's path changed never takes the old path") \
	X(VN_PORT_GONE, "vn_port_gone", "from or for a VN_Port told to log in again (a cutover) and not yet back: sessions its ENode resets") \
	X(MARK_UNTRUSTED, "mark_untrusted", "FCoE frame with the mark (a redirect rewrote it) on a port that is neither a fabric nor a series port") \
	X(LOGIN_HELD_FULL, "login_held_full", "fabric login frame: no room to hold it, or its event was lost") \
	X(NO_MBUF, "no_mbuf", "no mbuf for a copy of a fabric port's FIP frame to one more edge port") \
	X(DISTRIBUTOR_FULL, "distributor_full", "the distributor's ring to the frame's worker full (--distributor)") \
	X(TX_FULL, "tx_full", "egress queue full") \
	X(STORE_REFUSED, "store_refused", "any frame, while this node's tables refuse a redirect the configuration store holds (--config-store): it cannot steer that pair")

enum fcr_reason {
#define FCR_REASON_ENUM(id, name, text) FCR_R_##id,
	FCR_REASON_LIST(FCR_REASON_ENUM)
#undef FCR_REASON_ENUM
	FCR_R_COUNT
};

/* Counter name, e.g. "bad_sof"; "?" for values out of range. */
const char *fcr_reason_name(enum fcr_reason r);
/* One-line explanation for logs and `help`. */
const char *fcr_reason_text(enum fcr_reason r);

#endif /* FCR_REASON_H */
