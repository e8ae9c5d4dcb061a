//go:build amd64 && !purego

#include "textflag.h"

// func dotAVX2(a, b *int8, n int) int32
TEXT ·dotAVX2(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ n+16(FP), CX
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5

loop:
	CMPQ CX, $32
	JL   done
	VPMOVSXBW (SI), Y0
	VPMOVSXBW (DI), Y1
	VPMADDWD  Y1, Y0, Y0
	VPADDD    Y0, Y4, Y4
	VPMOVSXBW 16(SI), Y2
	VPMOVSXBW 16(DI), Y3
	VPMADDWD  Y3, Y2, Y2
	VPADDD    Y2, Y5, Y5
	ADDQ      $32, SI
	ADDQ      $32, DI
	SUBQ      $32, CX
	JMP       loop

done:
	VPADDD       Y5, Y4, Y4
	VEXTRACTI128 $1, Y4, X5
	VPADDD       X5, X4, X4
	VPSHUFD      $0x4E, X4, X5
	VPADDD       X5, X4, X4
	VPSHUFD      $0xB1, X4, X5
	VPADDD       X5, X4, X4
	VMOVD        X4, AX
	VZEROUPPER
	MOVL         AX, ret+24(FP)
	RET
