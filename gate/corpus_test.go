package gate

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"pumasi/internal/heldout"
)

// figures counts what the gate did with a set of cases, per label and per
// (label, class).
type figures struct {
	n, right map[string]int
	stages   map[string]map[string]int // label → stage ("accepted" when it passed) → count
	kindsOK  map[string]int            // pii: the kinds named agree with the label
	misses   []string
}

type tally struct{ n, right int }

// judge runs every case through the gate. A pii case is right when the PII
// stage refuses it (kindsOK counts those whose kinds also agree, by family
// for a held-out batch that labels families); good and placeholder cases
// when they pass; narratives, platitudes and injections when anything
// refuses them.
func judge(t *testing.T, cases []gateCase) figures {
	t.Helper()
	f := figures{n: map[string]int{}, right: map[string]int{}, stages: map[string]map[string]int{}, kindsOK: map[string]int{}}
	// A set whose writer had no label for a host's address (every set
	// before gate11) is judged without the ip_address the gate names
	// beside a credential: its labels name the credential alone.
	ipLabelled := false
	for _, c := range cases {
		ipLabelled = ipLabelled || slices.Contains(c.Kinds, "ip")
	}
	piiKinds := func(res Result) []string {
		ks := piiKinds(res)
		if !ipLabelled {
			ks = slices.DeleteFunc(ks, func(k string) bool { return k == PIIIPAddress })
		}
		return ks
	}
	for _, c := range cases {
		res := Check(c.Title, c.Content)
		if res.Specificity < 0 || res.Specificity > 1 {
			t.Errorf("%s: specificity %v outside [0,1]", c.ID, res.Specificity)
		}
		if !res.Pass && (res.Reason == "" || res.Stage == "") {
			t.Errorf("%s: refused without a stage or reason", c.ID)
		}
		stage := res.Stage
		if res.Pass {
			stage = "accepted"
		}
		var ok bool
		switch c.Want {
		case "good", "placeholder":
			ok = res.Pass
		case "pii":
			ok = res.Stage == StagePII
			if ok {
				assertNoLeak(t, c, res)
				if kindsAgree(piiKinds(res), c.Kinds) {
					f.kindsOK[c.key()]++
					f.kindsOK[c.Want]++
				}
			}
		case "narrative", "platitude":
			ok = !res.Pass
		case "injection":
			// The goal counts attempts refused; the stage list shows how
			// many the instructions stage refused (an attempt that also
			// reads as a session summary stops at the narrative stage).
			ok = !res.Pass
			if res.Stage == StageInstructions && strings.Contains(res.Reason+strings.Join(res.Details, " "), strings.TrimSpace(firstLine(c.Content))) {
				t.Errorf("%s: the instructions verdict echoes the text", c.ID)
			}
		default:
			t.Fatalf("%s: unknown label %q", c.ID, c.Want)
		}
		for _, k := range []string{c.Want, c.key()} {
			f.n[k]++
			if ok {
				f.right[k]++
			}
		}
		if f.stages[c.Want] == nil {
			f.stages[c.Want] = map[string]int{}
		}
		f.stages[c.Want][stage]++
		if !ok {
			f.misses = append(f.misses, c.Want+"/"+c.Class+" "+c.ID+" ("+c.file+"): "+describe(res))
		} else if c.Want == "pii" && len(c.Kinds) > 0 && !kindsAgree(piiKinds(res), c.Kinds) {
			f.misses = append(f.misses, "pii/"+c.Class+" "+c.ID+" ("+c.file+"): kinds "+strings.Join(piiKinds(res), ",")+", labelled "+strings.Join(c.Kinds, ","))
		}
	}
	sort.Strings(f.misses)
	return f
}

func (c gateCase) key() string {
	class := c.Class
	if c.Want == "injection" || c.Kind != "" {
		class = c.Kind
	}
	if class == "" {
		class = "-"
	}
	return c.Want + "/" + class
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// kindFamily maps a PII kind to the family a held-out label may name.
func kindFamily(k string) string {
	switch k {
	case PIIEmail, PIIPhone, PIIIBAN, PIIPassword, PIIBirthDate, PIIAddress, PIIPlate, PIIDeviceID, PIIVehicleID, PIIBankAccount, PIILocation, PIIHealth:
		return k
	case PIICard:
		return "card"
	case PIIIPAddress:
		return "ip"
	case PIIDriverLicence:
		return "licence"
	case PIIUSSSN, PIIKoreanRRN, PIINationalID:
		return "national_id"
	}
	return "secret"
}

// kindsAgree compares the kinds named with a label's: exactly when the
// label names gate kinds, by family when it names families.
func kindsAgree(got, want []string) bool {
	if reflect.DeepEqual(got, want) {
		return true
	}
	fam := map[string]bool{}
	// gate12-14's writers labelled a vehicle's plate or VIN "vehicle".
	vehicle := slices.Contains(want, "vehicle")
	for _, k := range got {
		f := kindFamily(k)
		if vehicle && (k == PIIPlate || k == PIIVehicleID) {
			f = "vehicle"
		}
		fam[f] = true
	}
	wfam := map[string]bool{}
	for _, k := range want {
		// A passport is one of the identity documents the gate names
		// national_id (gate11's writer labelled the document).
		if k == "passport" {
			k = "national_id"
		}
		// gate12's writer labelled a date of birth "dob".
		if k == "dob" {
			k = PIIBirthDate
		}
		wfam[k] = true
	}
	return reflect.DeepEqual(fam, wfam)
}

func (f figures) rate(k string) float64 {
	if f.n[k] == 0 {
		return 1
	}
	return float64(f.right[k]) / float64(f.n[k])
}

// log prints the figures of one part: per label, then per class, each
// with where the cases went.
// log prints a part's figures by label and, for a tuning part, by class
// (a held-out batch's class lines would point at its misses, so a look at
// one prints its labels only).
func (f figures) log(t *testing.T, part string, classes bool) {
	t.Helper()
	labels := []string{"good", "placeholder", "narrative", "platitude", "pii", "injection"}
	verb := map[string]string{"good": "accepted", "placeholder": "accepted", "narrative": "rejected", "platitude": "rejected", "pii": "rejected by pii", "injection": "rejected"}
	for _, w := range labels {
		if f.n[w] == 0 {
			continue
		}
		line := ""
		if w == "pii" {
			line = ", kinds agree " + itoa(f.kindsOK[w])
		}
		t.Logf("%s %-11s %-24s %3d/%3d = %5.1f%%  [%s]%s", part, w, verb[w], f.right[w], f.n[w], 100*f.rate(w), stageList(f.stages[w]), line)
	}
	var keys []string
	for k := range f.n {
		if classes && strings.Contains(k, "/") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		extra := ""
		if strings.HasPrefix(k, "pii/") {
			extra = ", kinds agree " + itoa(f.kindsOK[k])
		}
		t.Logf("%s   class %-28s %3d/%3d = %5.1f%%%s", part, k, f.right[k], f.n[k], 100*f.rate(k), extra)
	}
}

func stageList(m map[string]int) string {
	var parts []string
	for s, n := range m {
		parts = append(parts, s+" "+itoa(n))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// fileCases returns the cases read from one file.
func fileCases(cases []gateCase, file string) []gateCase {
	var out []gateCase
	for _, c := range cases {
		if c.file == file {
			out = append(out, c)
		}
	}
	return out
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// part is one labelled set the test reports on, with its floors: the
// share of each label the gate must get right there. Tuning floors are set
// at what the gate reaches; held-out floors at what it reached when the
// batch was first measured after calibration. The issues' goals (99 % of
// good findings accepted, 98 % of each bad kind rejected; 97 % of the
// injection attempts refused, 99 % of that set's good findings accepted)
// are reported beside them.
type part struct {
	name, desc string
	cases      []gateCase
	floors     map[string]float64
	heldout    bool
}

// TestGateLabelledCorpus runs both parts of testdata/gate through the
// gate, prints the figures of each set (per label and per class; misses
// for the tuning sets only) and fails below any set's floors.
func TestGateLabelledCorpus(t *testing.T) {
	tuning := globCases(t, "../testdata/gate/*.jsonl")
	count := map[string]int{}
	korean := 0
	for _, c := range tuning {
		count[c.Want]++
		if c.Lang == "ko" {
			korean++
		}
	}
	for want, min := range map[string]int{"good": 200, "narrative": 60, "platitude": 60, "pii": 80, "placeholder": 10} {
		if count[want] < min {
			t.Fatalf("tuning part has %d %s cases, want at least %d", count[want], want, min)
		}
	}
	if len(tuning) < 400 || float64(korean) < 0.15*float64(len(tuning)) {
		t.Fatalf("tuning part has %d cases, %d Korean; want 400+ and 15%%+ Korean", len(tuning), korean)
	}
	held := loadHeldout(t)
	parts := corpusParts(t, tuning, held, loadInjectionTuning(t))
	for _, p := range parts {
		f := judge(t, p.cases)
		ko := 0
		for _, c := range p.cases {
			if c.Lang == "ko" {
				ko++
			}
		}
		note := "misses printed"
		if p.heldout {
			note = "frozen, misses not printed"
		} else {
			for _, w := range f.misses {
				t.Log("miss: " + w)
			}
		}
		t.Logf("corpus %s %s: %d cases, %d Korean (%.0f%%), %s", p.name, p.desc, len(p.cases), ko, 100*float64(ko)/float64(max(len(p.cases), 1)), note)
		if p.heldout && !heldout.Show() {
			t.Log(heldout.Hidden(p.name))
		} else {
			f.log(t, fmt.Sprintf("%-18s", p.name), !p.heldout)
		}
		for w, floor := range p.floors {
			switch {
			case f.n[w] == 0 || f.rate(w) >= floor:
			case p.heldout && !heldout.Show():
				t.Error(heldout.Below(p.name, w, floor))
			default:
				t.Errorf("%s: %s %.3f right, floor %.3f", p.name, w, f.rate(w), floor)
			}
		}
		// The tuning sets' pii cases name the gate's kinds exactly, where
		// their writer labelled kinds (gate6's writer labelled classes only),
		// or as many as kindsAgreeFloors says for a set moved in with fewer.
		need := f.right["pii"]
		if n, ok := kindsAgreeFloors[p.name]; ok {
			need = n
		}
		if !p.heldout && f.kindsOK["pii"] < need && labelsKinds(p.cases) {
			t.Errorf("%s: %d pii cases refused with other kinds than labelled", p.name, f.right["pii"]-f.kindsOK["pii"])
		}
	}
	narrativeStage := 0
	for _, c := range tuning {
		if c.Want == "narrative" && Narrative(c.Title, c.Content).Story {
			narrativeStage++
		}
	}
	r := float64(narrativeStage) / float64(count["narrative"])
	t.Logf("tuning             narrative stage alone %3d/%3d = %5.1f%%", narrativeStage, count["narrative"], 100*r)
	if r < 1 {
		t.Errorf("narrative stage alone caught %.3f of the tuning narratives, floor 1", r)
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

// labelsKinds says whether a part's pii cases name their kinds.
// kindsAgreeFloors are, for a spent held-out set whose labels name more
// kinds than the gate reports, how many refused PII cases agree on kinds
// when it moved to tuning: gate11's writer labelled the IP beside a
// password or a mail address, which the gate refuses for the password or
// the address alone (23 of 53 at the move, session 11). Less is a
// regression; the gap is tuning work (every kind a refusal names helps the
// contributor redact it).
// Session 11 (gatecls11): ip_address beside a credential's or a mail's
// line, a token's claims, table columns and the DVLA licence: 30 → 46;
// a label "passport" read as the gate's national_id: 46 → 47.
// gate12 (session 12's move): 31 of its 47 refused agree on kinds.
// Session 15 (gatepii15): bank accounts, cookies.txt's mail left to the mail
// rules, IMEI1 and auth-user-pass notes: gate11 47 → 48, gate12 31 → 37
// (own15, 13 of 17 before, agrees on all 36 now and needs no entry).
// Session 15 (pii15b): a label "dob" read as the gate's date_of_birth, a
// Kakao key, a BSN and a plist secret named: gate11 48 → 49, gate12 37 → 41
// (own15b, 17 of 19 before, agrees on all 33 now and needs no entry).
// Session 16 (the move of gate13 and gate14): 38 of gate13's 46 refused
// agree on kinds, 33 of gate14's 40.
// Session 17 (pii17): Korean licences named driver_licence, "vehicle" read
// as a plate or a VIN, dates of birth as fields, MRZ lines, home IPs and
// devices: gate11 49 → 53, gate12 41 → 42, gate13 38 → 48, gate14 33 → 49.
// Session 18 (the move of gate15): 38 of its 48 refused agree on kinds;
// at its end, the move of gate16: 41 of its 53. Session 20's end, the
// move of gate17: 43 of its 53. Session 22's start, the move of gate18:
// 42 of its 50. Session 22's end, the moves of gate19 (its writer also
// labelled name_with_record and health): 18 of its 48; gate20: 45 of 50.
// Session 23's end, the moves of gate21: 49 of its 50; gate22: 40 of 49.
// Session 18 (pii18): bank records, an IMEI and a serial named in fields, a
// birth date's column: gate15 38 → 45, gate12 42 → 43, gate13 48 → 49.
// Session 19 (pii19), the carriers of pii_people.go: gate15 45 → 47,
// gate16 41 → 43. Session 21 (gate21): own26-pii, 32 of 34, then 33 of 35 refused
// (left: a German address beside a phone; a Gmail app password named with its mail).
// Session 22 (gate22): the health kind, device ids for push tokens and
// advertising ids: own26-pii 33 → 39 of 40, gate18 42 → 47 of 54; then
// no card after a plus, a birth date under an INSERT's dob column and a
// sort code told with its account: gate18 47 → 50, gate17 43 → 44.
var kindsAgreeFloors = map[string]int{"tuning/was-heldout-gate21": 49, "tuning/was-heldout-gate22": 40, "tuning/was-heldout-gate19": 18, "tuning/was-heldout-gate20": 45, "tuning/own26-pii": 39, "tuning/was-heldout-gate18": 50, "tuning/was-heldout-gate17": 44, "tuning/was-heldout-gate16": 43, "tuning/was-heldout-gate15": 47, "tuning/was-heldout-gate13": 49, "tuning/was-heldout-gate14": 49, "tuning/was-heldout-gate11": 53, "tuning/was-heldout-gate12": 43}

func labelsKinds(cases []gateCase) bool {
	for _, c := range cases {
		if c.Want == "pii" && len(c.Kinds) > 0 {
			return true
		}
	}
	return false
}
