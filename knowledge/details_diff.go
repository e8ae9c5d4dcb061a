package knowledge

import (
	"slices"
	"strings"
)

// The word diff phraseSwapped reads (Myers' edit script over two texts'
// words) and the swaps it tells apart as moves: the same words said in
// another order, an operator or a phrase moved a few words along.

// seqOp is one step of a diff: a word of a kept (0), dropped (-1) or one of
// b added (+1).
type seqOp struct {
	kind int
	word string
	at   int // the word's index in a (kept, dropped) or in b (added)
}

// diffWords is the shortest edit script from a to b (Myers' O(ND)
// algorithm), or false when it takes more than maxD edits.
func diffWords(a, b []string, maxD int) ([]seqOp, bool) {
	n, m := len(a), len(b)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(a, b, trace, off), true
			}
		}
	}
	return nil, false
}

func backtrack(a, b []string, trace [][]int, off int) []seqOp {
	x, y := len(a), len(b)
	var rev []seqOp
	for d := len(trace) - 1; d > 0; d-- {
		v := trace[d]
		k := x - y
		var pk int
		if k == -d || k != d && v[off+k-1] < v[off+k+1] {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := v[off+pk]
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, seqOp{0, a[x], x})
		}
		if x == px {
			y--
			rev = append(rev, seqOp{+1, b[y], y})
		} else {
			x--
			rev = append(rev, seqOp{-1, a[x], x})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, seqOp{0, a[x], x})
	}
	out := make([]seqOp, len(rev))
	for i, op := range rev {
		out[len(rev)-1-i] = op
	}
	return out
}

// hunkReordered reports whether a swap's ops (a hunk of phraseSwapped) say the
// same words in another order (log in first and mount second, log in
// second and mount first; 2>&1 > log, > log 2>&1; 0 4 * 7 *, 0 4 7 * *):
// steps, fields or redirections in another order, which a rewording this
// close keeps.
func hunkReordered(ops []seqOp) bool {
	var a, b []string
	for _, op := range ops {
		if op.kind <= 0 {
			a = append(a, op.word)
		}
		if op.kind >= 0 {
			b = append(b, op.word)
		}
	}
	if len(a) < 2 || len(a) != len(b) || slices.Equal(a, b) {
		return false
	}
	sa, sb := slices.Clone(a), slices.Clone(b)
	slices.Sort(sa)
	slices.Sort(sb)
	if !slices.Equal(sa, sb) {
		return false
	}
	// A phrase moved (over HTTPS from GitLab, from GitLab over HTTPS) is
	// a rewording; steps, operators and short fields exchanged are not.
	for _, w := range a {
		if orderWords[w] || strings.ContainsAny(w, operatorChars) || len(a) <= 3 && isNumber(w) {
			return true
		}
	}
	return false
}

// moveGap is how many equal words a phrase may move across and still be
// read as moved (operatorMoved) rather than dropped and added elsewhere.
const moveGap = 4

// operatorMoved reports whether ops drop a phrase and add it back a few
// words away (> log 2>&1, 2>&1 > log), when the phrase holds an operator
// or an order word: hunkReordered for a move across more words than a
// swap bridges.
func operatorMoved(ops []seqOp) bool {
	for i := 0; i < len(ops); {
		if ops[i].kind == 0 {
			i++
			continue
		}
		kind, j := ops[i].kind, i
		var run []string
		for j < len(ops) && ops[j].kind == kind {
			run = append(run, ops[j].word)
			j++
		}
		e := j
		for e < len(ops) && ops[e].kind == 0 && e-j < moveGap {
			e++
		}
		var back []string
		for k := e; k < len(ops) && ops[k].kind == -kind; k++ {
			back = append(back, ops[k].word)
		}
		if e > j && slices.Equal(run, back) && slices.ContainsFunc(run, func(w string) bool {
			return orderWords[w] || strings.ContainsAny(w, operatorChars)
		}) {
			return true
		}
		i = j
	}
	return false
}

// orderWords are the words that tell which of two steps comes first.
var orderWords = map[string]bool{"first": true, "second": true, "then": true, "before": true, "after": true,
	"last": true, "next": true, "earlier": true, "later": true, "먼저": true, "나중": true, "나중에": true,
	"처음": true, "다음": true, "마지막": true, "이전": true, "이후": true}
