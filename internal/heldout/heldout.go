// Package heldout says whether a quality test may print the figures of a
// held-out batch (testdata/gate/heldout, testdata/knowledge/heldout*,
// testdata/knowledge/relevance/heldout*).
//
// A held-out batch judges one change: its aggregates are read once before
// the change and once after, and then it is spent. A test that printed
// them on every run made every tuning run and every `make test` a look,
// so the tests measure a held-out batch and enforce its floors always, but
// print its figures only when a person asks for that look
// (PUMASI_SHOW_HELDOUT=1). A floor that fails says which figure fell, not
// its value: a failing run while tuning is not a look at the batch.
package heldout

import (
	"os"
	"strconv"
)

// Env is the variable that shows held-out figures.
const Env = "PUMASI_SHOW_HELDOUT"

// Show reports whether held-out figures are to be printed.
func Show() bool { return os.Getenv(Env) != "" }

// Hidden is what a test prints in place of a held-out part's figures.
func Hidden(part string) string {
	return part + ": held out, figures not printed (floors checked; " + Env + "=1 prints them, and counts as a look)"
}

// Below is a held-out floor's failure message when figures are hidden: it
// names the figure that fell and its floor, never the figure itself.
func Below(part, figure string, floor float64) string {
	return part + ": " + figure + " below its floor " + trim(floor) + " (held out: the figure is not printed; " + Env + "=1 prints it, and counts as a look)"
}

func trim(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
