package gate

import "testing"

// movedParts16 are the held-out batches spent by two looks (sessions 15
// and 17), tuning data since sessions 16 and 18 (moved before any of their
// changes), with floors at look 2. Their misses may be read and tuned on now.
func movedParts16(t *testing.T) []part {
	t.Helper()
	return []part{
		// gate13: written in session 11 for session 12 by an outside writer.
		// Look 1 on 0415b19: good 80/80, placeholders 42/45, narratives
		// 40/40, platitudes 39/40, PII 46/55; look 2 on da1c50a the same
		// (kinds agree on 38). Held out as heldout/gate13.jsonl, sha256
		// 8b628080….
		// Session 17 (pii17), on its misses: a specimen's repeated-digit
		// DNI and a vendor prefix before a <template> pass (placeholders
		// 42 → 44/45); events API routing keys, a password with a year,
		// ids by their checks in id columns and strong checks in a text
		// naming them, MAC and serial beside their user, an SSH login's
		// source, a home's coordinates: PII 46 → 55/55 (kinds 38 → 48).
		{"tuning/was-heldout-gate13", "testdata/gate/was-heldout/gate13.jsonl", globCases(t, "../testdata/gate/was-heldout/gate13.jsonl"),
			map[string]float64{"good": 1, "placeholder": 0.977, "narrative": 1, "platitude": 0.975, "pii": 1}, false},
		// injection16: written in session 11 for session 12. Look 1 on
		// 0415b19 and look 2 on da1c50a: findings 93/100, attempts 85/100.
		// Held out as heldout/injection16.jsonl, sha256 9779895a…; outside
		// the instructions model's training glob.
		// Session 17 (inj17) read its misses: values of structured text said,
		// policies for agents, forged calls, the reader's steps kept out of
		// its report, comments unwrapped, translations carried out, consent
		// forged, prior rules void, labelled notes, Korean passives:
		// findings 93 → 95/100, attempts 85 → 98/100.
		// Session 19 (inj19), on injection19's kinds of text: "ignore" as
		// a tool's noun (type: ignore) passes: findings 95 → 96/100.
		{"tuning/was-heldout16", "testdata/gate/calibration/was-heldout-injection16.jsonl", loadCases(t, "../testdata/gate/calibration/was-heldout-injection16.jsonl"),
			// Session 23 (narr23): a cause told with its fix stands whatever story
			// words frame it: good 96 → 98/100.
			map[string]float64{"good": 0.98, "injection": 0.98}, false},
		// gate14: written at the start of session 15 by an outside writer who
		// read no project file. Look 1 on 3f95204: good 78/80, placeholders
		// 42/45, narratives 40/40, platitudes 40/40, PII 37/55 (kinds 27);
		// look 2 on da1c50a: PII 40/55 (kinds 33), the rest the same. Held
		// out as heldout/gate14.jsonl, sha256 0dd25df0….
		// Session 17 (pii17), on its misses: an epoch in ms is no RRN (good
		// 78 → 79/80); test values, dummy phones, a test password and the
		// registry's IBANs in a list of tests pass (placeholders 42 →
		// 45/45); MRZ lines, dates of birth as fields, documents and plates
		// named farther off with their holder, addresses in records, a
		// dialled E.164 number, home IPs, serials, a routing number in
		// prose: PII 40 → 55/55 (kinds 33 → 49).
		{"tuning/was-heldout-gate14", "testdata/gate/was-heldout/gate14.jsonl", globCases(t, "../testdata/gate/was-heldout/gate14.jsonl"),
			map[string]float64{"good": 0.987, "placeholder": 1, "narrative": 1, "platitude": 1, "pii": 1}, false},
		// injection17: written at the start of session 15 by an outside
		// writer. Look 1 on 3f95204: findings 98/100, attempts 93/100; look 2
		// on da1c50a: 98/100, 94/100. Held out as heldout/injection17.jsonl,
		// sha256 0e6e6bed…; outside the model's training glob.
		// Session 17 (inj17) read its misses: forged calls, letters joined by
		// marks, notices voiding prior rules, packages fetched with review
		// waived, clones run after a cd, payloads seen in the wild: findings
		// 98 → 99/100, attempts 94 → 100/100. Session 18 (inj18): the
		// model's refusal vetoed for advice that guards the person (반드시
		// 직접 읽고 검토하세요): findings 99 → 100/100.
		{"tuning/was-heldout17", "testdata/gate/calibration/was-heldout-injection17.jsonl", loadCases(t, "../testdata/gate/calibration/was-heldout-injection17.jsonl"),
			map[string]float64{"good": 1, "injection": 1}, false},
		// gate15: written in session 15 for session 16 by an outside writer.
		// Look 1 on da1c50a: good 78/80, placeholders 39/45, narratives
		// 40/40, platitudes 38/40, PII 46/55 (kinds 33); look 2 on 92fe42d:
		// PII 48/55, the rest the same. Held out as heldout/gate15.jsonl,
		// sha256 0e5e4923…; tuning data since session 18.
		// Session 18 (pii18), on its misses: a module@version is no mail
		// (good 78 → 79/80); fill-in words (REPLACE_ME), Stripe's failing
		// test IBAN and the UK validators' example, an example phone again
		// in E.164 pass (placeholders 39 → 44/45); attitudes are hedges
		// (platitudes 38 → 40/40); NACHA entry records, bank columns of a
		// table, a KR account in brackets, an actuator's wrapped password
		// (PII 48 → 52/55); one story word in a finding dense with detail
		// is its occasion (good 79 → 80/80).
		// Session 19 (pii19): a National Insurance number as a cell of a
		// person's record, My Number named anywhere in the text, a login
		// log's account with its public address (PII 52 → 55/55, kinds 45 →
		// 47).
		{"tuning/was-heldout-gate15", "testdata/gate/was-heldout/gate15.jsonl", globCases(t, "../testdata/gate/was-heldout/gate15.jsonl"),
			map[string]float64{"good": 1, "placeholder": 0.977, "narrative": 1, "platitude": 1, "pii": 1}, false},
		// injection18: written in session 15 for session 16. Look 1 on
		// da1c50a: findings 94/100, attempts 86/100; look 2 on 92fe42d:
		// 94/100, 87/100. Held out as heldout/injection18.jsonl, sha256
		// 388af1b6…; outside the model's training glob; tuning data since
		// session 18. Session 18 (inj18) read its misses: hard-wrapped
		// prose read whole, leave to run without asking, the text over what
		// the person asks, false states reported, things kept from a client
		// or a reporter, the conversation pasted, secrets in a DNS name or a
		// request body, exec of a fetched body, a decoded URL piped to a
		// shell, reversed quotes to act on; false alarms: a check that cannot
		// be bypassed, a prompt skipped in scripts, a clause naming the
		// attack: findings 94 → 98/100 (2 left to the narrative stage),
		// attempts 87 → 100/100. Session 18 (pii18): one story word in a
		// finding dense with detail is its occasion (findings 98 → 99/100).
		{"tuning/was-heldout18", "testdata/gate/calibration/was-heldout-injection18.jsonl", loadCases(t, "../testdata/gate/calibration/was-heldout-injection18.jsonl"),
			map[string]float64{"good": 0.99, "injection": 1}, false},
		// gate16: written at the start of session 17 by an outside writer.
		// Look 1 on 92fe42d: good 78/80, placeholders 43/45, narratives
		// 40/40, platitudes 38/40, PII 53/55 (kinds 39); look 2 on f76e60f:
		// the same (kinds 41). Held out as heldout/gate16.jsonl, sha256
		// 8e664804…; tuning data since the end of session 18.
		// Session 19 (pii19): a customer's own address handed over in
		// prose, a bank account in a log's bare account= field (PII 53 →
		// 55/55, kinds 41 → 43); a mail provider's test sinks and AWS's
		// example key as a writer edited it (placeholders 43 → 45/45); 맥
		// inside 맥락 names no Mac, Korean's "consider" (고민해 보세요) is a
		// hedge (platitudes 38 → 40/40); a flag's letter in a code span
		// (`df -i`) is no narrator, a relative day naming a date (그저께
		// 날짜) no story (good 78 → 80/80).
		{"tuning/was-heldout-gate16", "testdata/gate/was-heldout/gate16.jsonl", globCases(t, "../testdata/gate/was-heldout/gate16.jsonl"),
			map[string]float64{"good": 1, "placeholder": 1, "narrative": 1, "platitude": 1, "pii": 1}, false},
		// injection19: written at the start of session 17. Look 1 on
		// 92fe42d: findings 86/100, attempts 95/100; look 2 on f76e60f:
		// 87/100, 96/100. Held out as heldout/injection19.jsonl, sha256
		// e2c049c1…; outside the model's training glob; tuning data since
		// the end of session 18. Session 19 (inj19) read its misses and
		// fixed kinds of text (instructions_families7.go): agents' lapses
		// reported in the third person, "ignore" as a tool's noun, a
		// program's missing prompt stated as a fact, fenced agents, a "you"
		// beside "the model", remarks handed to a linter; commands built
		// from shell variables, words split over lines, letters spelled out
		// line by line, Japanese and Chinese requests: findings 87 →
		// 95/100 (the 5 left are the narrative stage's), attempts 96 →
		// 100/100.
		{"tuning/was-heldout19", "testdata/gate/calibration/was-heldout-injection19.jsonl", loadCases(t, "../testdata/gate/calibration/was-heldout-injection19.jsonl"),
			// Session 23 (narr23): a cause told with its fix stands whatever story
			// words frame it: good 95 → 97/100.
			map[string]float64{"good": 0.97, "injection": 1}, false},
		// gate17: written at the start of session 18 by an outside writer.
		// Look 1 on f76e60f: good 80/80, placeholders 45/45, narratives
		// 40/40, platitudes 38/40, PII 52/55 (kinds 41); look 2 on 48ea1d9
		// (session 20's final code): PII 53/55 (kinds 43), the rest the
		// same. Held out as heldout/gate17.jsonl, sha256 cd5fc8bd…; tuning
		// data since the end of session 20.
		{"tuning/was-heldout-gate17", "testdata/gate/was-heldout/gate17.jsonl", globCases(t, "../testdata/gate/was-heldout/gate17.jsonl"),
			map[string]float64{"good": 1, "placeholder": 1, "narrative": 1, "platitude": 0.975, "pii": 0.963}, false},
		// injection20: written at the start of session 18. Look 1 on
		// f76e60f: findings 95/100, attempts 90/100; look 2 on 48ea1d9: the
		// same. Held out as heldout/injection20.jsonl, sha256 fb39a4c3…;
		// outside the model's training glob; tuning data since the end of
		// session 20.
		{"tuning/was-heldout20", "testdata/gate/calibration/was-heldout-injection20.jsonl", loadCases(t, "../testdata/gate/calibration/was-heldout-injection20.jsonl"),
			map[string]float64{"good": 0.96, "injection": 0.90}, false},
		// gate18: written at the start of session 19 by an outside writer.
		// Look 1 on 48ea1d9: good 79/80, placeholders 44/45, narratives
		// 40/40, platitudes 37/40, PII 50/55 (kinds 42); look 2 on 24fa8c0
		// (session 21's final code): the same. Held out as
		// heldout/gate18.jsonl, sha256 d6934e47…; tuning data since the
		// start of session 22. Session 22 (gate22): a short list of
		// imperatives, a checklist of questions (adviceList): platitudes
		// 37 → 39/40, and the buzzwords of long security advice as
		// hedges (landscape, hygiene, awareness, defence-in-depth) 40/40;
		// push tokens and advertising ids as device ids, a Secret's base64
		// of a password, a US licence beside its word, a 2021 Korean
		// passport number: PII 50 → 54/55 (kinds 42 → 47, then 50).
		{"tuning/was-heldout-gate18", "testdata/gate/was-heldout/gate18.jsonl", globCases(t, "../testdata/gate/was-heldout/gate18.jsonl"),
			map[string]float64{"good": 1, "placeholder": 0.977, "narrative": 1, "platitude": 1, "pii": 0.981}, false},
		// injection21: written at the start of session 19. Look 1 on
		// 48ea1d9: findings 98/100, attempts 92/100; a second look at its
		// attempts (0.910) came from a retrained model that never landed
		// (session 21). Held out as heldout/injection21.jsonl, sha256
		// 966d2963…; outside the model's training glob; tuning data since
		// the start of session 22.
		{"tuning/was-heldout21", "testdata/gate/calibration/was-heldout-injection21.jsonl", loadCases(t, "../testdata/gate/calibration/was-heldout-injection21.jsonl"),
			map[string]float64{"good": 0.98, "injection": 0.92}, false},
	}
}

// heldoutParts are the frozen batches of testdata/gate/heldout/ (their
// checksums in heldoutBatches). Only aggregates are printed.
func heldoutParts(t *testing.T, held map[string][]gateCase) []part {
	t.Helper()
	// Empty since session 23's end: its four batches were spent by their
	// second look and moved to tuning (movedParts23). A new batch is
	// frozen in heldoutBatches and listed here with floors 0 until look 1.
	return []part{}
}
