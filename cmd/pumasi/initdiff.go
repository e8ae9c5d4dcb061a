package main

import (
	"fmt"
	"strings"
)

// unifiedDiff is a unified diff (3 lines of context) from old to new under
// the given name, "" when they are equal. Config files are small, so a
// plain LCS table is enough; past maxDiffCells it shows the whole file
// replaced.
func unifiedDiff(name string, old, new []byte) string {
	if string(old) == string(new) {
		return ""
	}
	a, b := diffLines(string(old)), diffLines(string(new))
	ops := lineOps(a, b)
	from, to := "a/"+name, "b/"+name
	if strings.HasPrefix(name, "/") || strings.HasPrefix(name, "~") {
		from, to = name, name
	}
	if len(old) == 0 {
		from = "/dev/null"
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", from, to)
	const ctx = 3
	// Group the ops into hunks: runs of changes with up to 2*ctx equal
	// lines between them.
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
		aStart, bStart, aLen, bLen := ops[start].ai, ops[start].bi, 0, 0
		var body strings.Builder
		for _, op := range ops[start:end] {
			body.WriteByte(op.kind)
			body.WriteString(op.text)
			if !strings.HasSuffix(op.text, "\n") {
				body.WriteString("\n\\ No newline at end of file\n")
			}
			if op.kind != '+' {
				aLen++
			}
			if op.kind != '-' {
				bLen++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n%s", hunkRange(aStart, aLen), hunkRange(bStart, bLen), body.String())
		i = end
	}
	return out.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// diffLines splits s into lines that keep their "\n".
func diffLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

type lineOp struct {
	kind   byte // ' ', '-', '+'
	text   string
	ai, bi int // line index in a and b where the op starts
}

const maxDiffCells = 4 << 20

// lineOps aligns a and b by their longest common subsequence.
func lineOps(a, b []string) []lineOp {
	n, m := len(a), len(b)
	var ops []lineOp
	if (n+1)*(m+1) > maxDiffCells {
		for i, l := range a {
			ops = append(ops, lineOp{'-', l, i, 0})
		}
		for j, l := range b {
			ops = append(ops, lineOp{'+', l, n, j})
		}
		return ops
	}
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, lineOp{' ', a[i], i, j})
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, lineOp{'-', a[i], i, j})
			i++
		default:
			ops = append(ops, lineOp{'+', b[j], i, j})
			j++
		}
	}
	return ops
}
