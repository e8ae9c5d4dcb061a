package main

import (
	"fmt"
	"strings"
)

// A line diff for pumasi diff: Myers' O(ND) shortest edit script over lines,
// printed as a unified diff. Room files are at most 256 KiB, so the whole
// trace fits in memory; the dashboard runs the same algorithm in its page.

type editOp struct {
	kind byte // ' ', '-', '+'
	line string
}

// textLines splits text into lines, keeping a last line without newline.
func textLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// myersDiff returns the edit script that turns a into b. The common head
// and tail are matched first: cheaper, and the changes then stay where a
// reader looks for them.
func myersDiff(a, b []string) []editOp {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	var ops []editOp
	for _, l := range a[:head] {
		ops = append(ops, editOp{' ', l})
	}
	ops = append(ops, myersCore(a[head:len(a)-tail], b[head:len(b)-tail])...)
	for _, l := range a[len(a)-tail:] {
		ops = append(ops, editOp{' ', l})
	}
	return ops
}

func myersCore(a, b []string) []editOp {
	n, m := len(a), len(b)
	if n == 0 && m == 0 {
		return nil
	}
	maxD := n + m
	v := make([]int, 2*maxD+2)
	var trace [][]int
	off := maxD + 1
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, a, b, off, d)
			}
		}
	}
	return nil
}

func backtrack(trace [][]int, a, b []string, off, d int) []editOp {
	var ops []editOp
	x, y := len(a), len(b)
	for ; d > 0; d-- {
		v := trace[d]
		k := x - y
		var prevK int
		if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := v[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x, y = x-1, y-1
			ops = append(ops, editOp{' ', a[x]})
		}
		if x == prevX {
			y--
			ops = append(ops, editOp{'+', b[y]})
		} else {
			x--
			ops = append(ops, editOp{'-', a[x]})
		}
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		ops = append(ops, editOp{' ', a[x]})
	}
	for i, j := 0, len(ops)-1; i < j; i, j = i+1, j-1 {
		ops[i], ops[j] = ops[j], ops[i]
	}
	return ops
}

// versionDiff prints the diff of a and b with ctx lines of context; an
// empty string means no difference.
func versionDiff(nameA, nameB, a, b string, ctx int) string {
	ops := myersDiff(textLines(a), textLines(b))
	changed := false
	for _, op := range ops {
		changed = changed || op.kind != ' '
	}
	if !changed {
		return ""
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", nameA, nameB)
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(0, i-ctx)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*ctx {
				end = min(len(ops), end+ctx)
				break
			}
			end = run
		}
		la, lb := 1, 1
		for _, op := range ops[:start] {
			if op.kind != '+' {
				la++
			}
			if op.kind != '-' {
				lb++
			}
		}
		ca, cb := 0, 0
		for _, op := range ops[start:end] {
			if op.kind != '+' {
				ca++
			}
			if op.kind != '-' {
				cb++
			}
		}
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkSpan(la, ca), hunkSpan(lb, cb))
		for _, op := range ops[start:end] {
			sb.WriteByte(op.kind)
			sb.WriteString(op.line)
			if !strings.HasSuffix(op.line, "\n") {
				sb.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return sb.String()
}

func hunkSpan(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
