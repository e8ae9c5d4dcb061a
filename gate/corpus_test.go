package gate

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// gateCase is one labelled contribution of testdata/gate. Want is good (must
// pass), placeholder (carries a documentation value that looks like PII and
// must pass), narrative, platitude or pii (must be refused; pii cases also
// name the exact kinds).
type gateCase struct {
	ID      string   `json:"id"`
	Lang    string   `json:"lang"`
	Want    string   `json:"want"`
	Kinds   []string `json:"kinds"`
	Title   string   `json:"title"`
	Content string   `json:"content"`
}

func loadGateCorpus(t *testing.T) []gateCase {
	t.Helper()
	paths, err := filepath.Glob("../testdata/gate/*.jsonl")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no testdata/gate/*.jsonl: %v", err)
	}
	var out []gateCase
	ids := map[string]bool{}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for n := 1; sc.Scan(); n++ {
			line := strings.TrimSpace(sc.Text())
			if line == "" {
				continue
			}
			var c gateCase
			if err := json.Unmarshal([]byte(line), &c); err != nil {
				t.Fatalf("%s:%d: %v", p, n, err)
			}
			if ids[c.ID] {
				t.Fatalf("%s:%d: duplicate id %q", p, n, c.ID)
			}
			ids[c.ID] = true
			out = append(out, c)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// Floors the gate must hold on testdata/gate, set at what it reaches (the
// issue asked for at least 99 %, 98 %, 95 % and zero refused placeholders).
const (
	floorGoodAccepted      = 1.00
	floorBadRejected       = 1.00
	floorNarrativeStage    = 1.00
	maxPlaceholdersRefused = 0
)

// TestGateLabelledCorpus runs testdata/gate through the gate, prints the
// figures the issue asks for and fails below the floors.
func TestGateLabelledCorpus(t *testing.T) {
	cases := loadGateCorpus(t)
	count := map[string]int{}
	korean := 0
	for _, c := range cases {
		count[c.Want]++
		if c.Lang == "ko" {
			korean++
		}
	}
	for want, min := range map[string]int{"good": 200, "narrative": 60, "platitude": 60, "pii": 80, "placeholder": 10} {
		if count[want] < min {
			t.Fatalf("corpus has %d %s cases, want at least %d", count[want], want, min)
		}
	}
	if len(cases) < 400 || float64(korean) < 0.15*float64(len(cases)) {
		t.Fatalf("corpus has %d cases, %d Korean; want 400+ and 15%%+ Korean", len(cases), korean)
	}

	right := map[string]int{}
	narrativeStage := 0
	var wrong []string
	for _, c := range cases {
		res := Check(c.Title, c.Content)
		if res.Specificity < 0 || res.Specificity > 1 {
			t.Errorf("%s: specificity %v outside [0,1]", c.ID, res.Specificity)
		}
		if !res.Pass && (res.Reason == "" || res.Stage == "") {
			t.Errorf("%s: refused without a stage or reason: %+v", c.ID, res)
		}
		var ok bool
		switch c.Want {
		case "good", "placeholder":
			ok = res.Pass
		case "pii":
			ok = res.Stage == StagePII && reflect.DeepEqual(piiKinds(res), c.Kinds)
			if res.Stage == StagePII {
				assertNoLeak(t, c, res)
			}
		case "narrative":
			ok = !res.Pass
			if Narrative(c.Title, c.Content).Story {
				narrativeStage++
			} else {
				wrong = append(wrong, "narrative "+c.ID+": missed by the narrative stage")
			}
		case "platitude":
			ok = !res.Pass
		default:
			t.Fatalf("%s: unknown label %q", c.ID, c.Want)
		}
		if ok {
			right[c.Want]++
		} else {
			wrong = append(wrong, c.Want+" "+c.ID+": "+describe(res))
		}
	}
	sort.Strings(wrong)
	for _, w := range wrong {
		t.Log("miss: " + w)
	}
	rate := func(w string) float64 { return float64(right[w]) / float64(count[w]) }
	t.Logf("corpus testdata/gate: %d cases, %d Korean (%.0f%%)", len(cases), korean, 100*float64(korean)/float64(len(cases)))
	t.Logf("good accepted          %3d/%3d = %5.1f%%", right["good"], count["good"], 100*rate("good"))
	for _, w := range []string{"narrative", "platitude", "pii"} {
		t.Logf("%-9s rejected       %3d/%3d = %5.1f%%", w, right[w], count[w], 100*rate(w))
	}
	t.Logf("narrative stage alone  %3d/%3d = %5.1f%%", narrativeStage, count["narrative"], 100*float64(narrativeStage)/float64(count["narrative"]))
	t.Logf("placeholders refused   %3d/%3d", count["placeholder"]-right["placeholder"], count["placeholder"])

	if rate("good") < floorGoodAccepted {
		t.Errorf("good findings accepted %.3f, floor %.3f", rate("good"), floorGoodAccepted)
	}
	for _, w := range []string{"narrative", "platitude", "pii"} {
		if rate(w) < floorBadRejected {
			t.Errorf("%s rejected %.3f, floor %.3f", w, rate(w), floorBadRejected)
		}
	}
	if r := float64(narrativeStage) / float64(count["narrative"]); r < floorNarrativeStage {
		t.Errorf("narrative stage alone caught %.3f, floor %.3f", r, floorNarrativeStage)
	}
	if n := count["placeholder"] - right["placeholder"]; n > maxPlaceholdersRefused {
		t.Errorf("%d placeholders refused, want at most %d", n, maxPlaceholdersRefused)
	}
}

// piiKinds returns the PII kinds a verdict names.
func piiKinds(res Result) []string {
	if res.Stage != StagePII {
		return nil
	}
	return res.Names(SignalMatched)
}

func describe(res Result) string {
	if res.Pass {
		return "accepted"
	}
	return res.Stage + " (" + res.Reason + ")"
}

// assertNoLeak checks that no 6+ character piece of a matched value shows
// up in the verdict.
func assertNoLeak(t *testing.T, c gateCase, res Result) {
	t.Helper()
	all := res.Reason + " " + strings.Join(res.Details, " ")
	for _, r := range piiRules {
		for _, m := range r.re.FindAllString(c.Title+"\n"+c.Content, -1) {
			if len(m) >= 6 && strings.Contains(all, m) {
				t.Errorf("%s: verdict leaks a matched value", c.ID)
			}
		}
	}
}
