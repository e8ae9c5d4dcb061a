package gate

import (
	"strings"
	"testing"
)

const specificFinding = "pgx v5: set `pool_max_conns=10` in the DSN; the default is max(4, GOMAXPROCS) and Supabase caps at 60 connections."

func TestGateLimitsStage(t *testing.T) {
	long := strings.Repeat(specificFinding+" ", HiveMaxContentRunes/len(specificFinding)+1)
	tests := []struct {
		name, title, content string
		stage                string
	}{
		{"title too short", "pg", specificFinding, StageLimits},
		{"title at minimum", "pgx", specificFinding, ""},
		{"title at maximum", strings.Repeat("가", HiveMaxTitleRunes), specificFinding, ""},
		{"title too long", strings.Repeat("가", HiveMaxTitleRunes+1), specificFinding, StageLimits},
		{"content at maximum", "pgx pool", strings.TrimSpace(long[:HiveMaxContentRunes]), ""},
		{"content too long", "pgx pool", long[:HiveMaxContentRunes+1], StageLimits},
		{"content empty", "pgx pool", "  ", StageLimits},
		// Limits run first: an oversized text with a secret is refused for its size.
		{"limits before pii", "pg", "mail ops@acme-corp.com", StageLimits},
	}
	for _, tt := range tests {
		r := Check(tt.title, tt.content)
		if r.Stage != tt.stage || r.Pass != (tt.stage == "") {
			t.Errorf("%s: stage %q pass %v (%s), want stage %q", tt.name, r.Stage, r.Pass, r.Reason, tt.stage)
		}
		if tt.stage == StageLimits && (len(r.Names(SignalLimit)) == 0 || !strings.Contains(r.Reason, "The Hive takes")) {
			t.Errorf("%s: limits verdict without a limit signal or reason: %+v", tt.name, r)
		}
	}
}

// TestGateReasonsSayWhatToChange checks each stage's reason and details:
// PII names kinds (never values) and says what to write instead; a narrative
// names what matched; a vague text lists what is missing, marked as missing.
func TestGateReasonsSayWhatToChange(t *testing.T) {
	r := Check("Ops contact", "Ping ops.lead@acme-corp.com or 010-4821-7730 when `kubectl drain` hangs.")
	if r.Stage != StagePII || !strings.Contains(r.Reason, "placeholders") ||
		strings.Join(r.Details, ",") != "matched: email,matched: phone" {
		t.Fatalf("pii verdict = %+v", r)
	}
	for _, s := range append(r.Details, r.Reason) {
		if strings.Contains(s, "acme") || strings.Contains(s, "4821") {
			t.Fatalf("pii verdict echoes a value: %q", s)
		}
	}

	r = Check("Session summary", "In this session I refactored server.go and ran `go test ./...` until it passed.")
	if r.Stage != StageNarrative || !strings.Contains(r.Reason, "session summary") ||
		!strings.Contains(strings.Join(r.Details, " "), `matched: session summary "in this session"`) {
		t.Fatalf("narrative verdict = %+v", r)
	}

	r = Check("Advice", "Always write tests and keep it simple.")
	missing := r.Names(SignalMissing)
	if r.Stage != StageSpecificity || !hasString(missing, "version") || !hasString(missing, "error text") ||
		!hasString(r.Names(SignalPenalty), signalPlatitude) || !strings.Contains(r.Reason, "its version") {
		t.Fatalf("specificity verdict = %+v", r)
	}
	for _, d := range r.Details {
		if !strings.HasPrefix(d, SignalMissing+": ") && !strings.HasPrefix(d, SignalMatched+": ") && !strings.HasPrefix(d, SignalPenalty+": ") {
			t.Fatalf("detail %q does not say whether it is missing or matched", d)
		}
	}

	r = Check("pgx pool", specificFinding)
	if !r.Pass || hasString(r.Names(SignalMatched), signalTech) == false || len(r.Names(SignalMissing)) != 0 {
		t.Fatalf("accepted verdict = %+v", r)
	}
}

// TestNarrativeIgnoresSpecificity: technical garnish does not turn a diary
// into a finding. Every narrative of the corpus, with a version, an error
// message, a flag and a code span added, still reads as a story.
func TestNarrativeIgnoresSpecificity(t *testing.T) {
	garnish := "\nIt was React 18.2 with `useEffect`, Postgres 16 said \"ERROR: deadlock detected\", and `go test -race ./...` took 30s."
	n := 0
	for _, c := range loadGateCorpus(t) {
		if c.Want != "narrative" {
			continue
		}
		n++
		r := Check(c.Title, c.Content+garnish)
		if r.Stage != StageNarrative {
			t.Errorf("%s with garnish: stage %q (%s), want narrative", c.ID, r.Stage, r.Reason)
		}
	}
	if n < 60 {
		t.Fatalf("only %d narratives in the corpus", n)
	}
}

// TestFormattingDoesNotLiftPlatitudes: backticks around every word, bullets
// or a fence around a platitude leave it under the floor.
func TestFormattingDoesNotLiftPlatitudes(t *testing.T) {
	for _, c := range loadGateCorpus(t) {
		if c.Want != "platitude" {
			continue
		}
		words := strings.Fields(c.Content)
		ticked := make([]string, len(words))
		for i, w := range words {
			ticked[i] = "`" + strings.Trim(w, ".,") + "`"
		}
		for name, content := range map[string]string{
			"backticks": strings.Join(ticked, " "),
			"bullets":   "- " + strings.ReplaceAll(c.Content, ". ", ".\n- "),
			"bold":      "**" + c.Content + "**",
		} {
			if s, sig := Specificity(c.Title, content); s >= SpecificityFloor {
				t.Errorf("%s in %s scores %.2f %v, want below %.2f", c.ID, name, s, sig, SpecificityFloor)
			}
		}
	}
}

// TestSpecificityCreditsContent checks the signals the issue names, one at
// a time, on otherwise plain sentences.
func TestSpecificityCreditsContent(t *testing.T) {
	tests := []struct {
		text, signal string
	}{
		{"Go map iteration order is randomized", signalTech},
		{"bcrypt truncates at the limit", signalTech},
		{"CSS transform traps the stacking", signalTech},
		{"npm ci needs a lockfile", signalTech},
		{"Git keeps the blob", signalTech},
		{"fixed in React 18", signalVersion},
		{"since Postgres 11 it is instant", signalVersion},
		{"tagged v1.2.3", signalVersion},
		{`it says "cannot run inside a transaction block"`, signalError},
		{"the call returns ERR_REQUIRE_ESM", signalError},
		{"migration failed: relation exists", signalError},
		{"bcrypt stops at 72 bytes", signalNumber},
		{"the timeout is 30s", signalNumber},
		{"bodies over 1 MiB are refused", signalNumber},
		{"call resp.Body.Close() after reading", signalIdentifier},
		{"pass --force-with-lease instead", signalFlag},
		{"```go\nx := f(a)\nif x == nil { return }\n```", signalCode},
		{"gaps appear because the sequence is not rolled back", signalCause},
	}
	for _, tt := range tests {
		if _, sig := Specificity("t", tt.text); !hasString(sig, tt.signal) {
			t.Errorf("Specificity(%q) signals %v, want %q", tt.text, sig, tt.signal)
		}
	}
	// Bare words in backticks and the word "error" earn nothing.
	for _, text := range []string{"Use a `cache` and `test` it", "Handle every error properly"} {
		if s, sig := Specificity("Tip", text); s >= 0.3 {
			t.Errorf("Specificity(%q) = %.2f %v, want under 0.3", text, s, sig)
		}
	}
}

func TestSpecificityBounded(t *testing.T) {
	all := strings.Repeat(specificFinding+" React 18 `go test -race ./...` \"ERROR: x failed: y\" 30s resp.Body --flag /etc/x because ", 50)
	for _, text := range []string{"", "x", all} {
		if s, _ := Specificity("title", text); s < 0 || s > 1 {
			t.Fatalf("Specificity = %v, outside [0,1]", s)
		}
	}
}

// BenchmarkCheckContribution measures the gate on a finding at The Hive's
// content limit, the most it is ever asked to read.
func BenchmarkCheckContribution(b *testing.B) {
	long := strings.Repeat(specificFinding+" 오늘 드디어 React 18 ", HiveMaxContentRunes/len(specificFinding))
	content := string([]rune(long)[:HiveMaxContentRunes])
	for b.Loop() {
		Check("pgx pool sizing", content)
	}
}

// installerFinding holds what makes every pattern of the instructions
// stage look: a piped installer, a URL, the words user, agent and send.
const installerFinding = "`curl -fsSL https://deno.land/install.sh | sh` installs Deno for the current user; an agent in CI should send DENO_INSTALL=/opt/deno and upload nothing else. "

// BenchmarkCheckContributionCommands measures the gate on a finding at the
// content limit that runs the instructions stage in full (commands, URLs,
// trigger words throughout).
func BenchmarkCheckContributionCommands(b *testing.B) {
	content := strings.Repeat(installerFinding, HiveMaxContentRunes/len(installerFinding))
	for b.Loop() {
		Check("Deno installer in CI", content)
	}
}
