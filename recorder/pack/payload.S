/* SPDX-License-Identifier: MIT */
/* The packed recorder's payload (CONFIG_REC_PACK): the stripped recorder as a raw LZMA2
 * stream, made by the Makefile from $O/tinyperf.stripped (TP_PAYLOAD: its path), and its size
 * before compression (TP_PAYLOAD_SIZE), which the raw stream does not carry. */
	.section .rodata.tp_payload, "a"
	.globl tp_payload, tp_payload_end, tp_payload_size
	.balign 4
tp_payload_size:
	.long TP_PAYLOAD_SIZE
tp_payload:
	.incbin TP_PAYLOAD
tp_payload_end:

	.section .note.GNU-stack, "", %progbits
