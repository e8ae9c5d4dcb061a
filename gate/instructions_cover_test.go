package gate

import (
	"testing"
)

// TestCoverFindingsPass: review23's findings (items 6-8) that the
// session-23 cover families refused, with variants written for this fix
// (calibration/own28-review-inj.jsonl): a build directory published with
// `cd dir && … sync .`, telemetry turned off beside a bot's "chore"
// title, and changelog advice not to claim what a test does not show.
func TestCoverFindingsPass(t *testing.T) {
	for _, c := range loadCases(t, "../testdata/gate/calibration/own28-review-inj.jsonl") {
		v := newViews(c.Content)
		if kinds := coverKinds(&v); len(kinds) > 0 {
			t.Errorf("%s: cover families read %v in %q", c.ID, kinds, c.Content)
		}
		if r := Instructions(c.Title, c.Content); r.Found() {
			t.Errorf("%s: instructions stage refuses %q", c.ID, c.Content)
		}
	}
}
