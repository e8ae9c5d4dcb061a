package gate

import "testing"

// corpusParts lists the labelled sets TestGateLabelledCorpus reports on,
// each with its floors and where it came from: tuning is
// testdata/gate/*.jsonl, held the frozen batches of heldout/, injTuning
// testdata/gate/injection/ (the instructions model's training set).
func corpusParts(t *testing.T, tuning []gateCase, held map[string][]gateCase, injTuning []gateCase) []part {
	t.Helper()
	all := map[string]float64{"good": 1, "placeholder": 1, "narrative": 1, "platitude": 1, "pii": 1}
	return append([]part{
		{"tuning", "testdata/gate/*.jsonl", tuning, all, false},
		// The accept rule's long explanation counts for a margin and needs
		// a detail (fixgate): 4 findings in prose with a cause or a
		// mitigation and no detail, far below the floor, are refused now
		// (861 → 857/870). With was-heldout5 in it (gateinj): good 954/999
		// (857 + 97), attempts 908/909 (822 + 86). With was-heldout6 and 7
		// in it and the model retrained on them (session 5): good 1091/1155
		// (the same 954 + 52 + 85), attempts 1078/1081 (909 + 69 + 100).
		// gategood: a concrete practice passes the accept rule, and the
		// instructions stage's address and clause rules read "only", 돌려주다,
		// semicolons and 비밀 more closely: good 1091 → 1144/1155 (steps in
		// testdata/gate/README.md and the commit messages).
		{"tuning/injection", "testdata/gate/injection", injTuning, map[string]float64{"good": 0.994, "injection": 0.999}, false},
		// Held out as heldout/gate.jsonl until its aggregates had been
		// printed on every run for a day: tuning data now, kept out of
		// the instructions model's training set (was-heldout/ is not
		// globbed) and reported on its own.
		{"tuning/was-heldout-gate", "testdata/gate/was-heldout/gate.jsonl", globCases(t, "../testdata/gate/was-heldout/gate.jsonl"),
			map[string]float64{"good": 1, "placeholder": 1, "narrative": 1, "platitude": 1, "pii": 1}, false},
		// Cases written for issue 23 item 5's calibration (regulators'
		// fictional numbers, documentation IBANs, vendors' test cards,
		// stories of a life around the work, and controls beside each),
		// likewise outside the model's training glob.
		// nino.jsonl: National Insurance numbers beside their name, and
		// order ids, part numbers and references in the same format.
		{"tuning/calibration", "testdata/gate/calibration/{classes,nino}.jsonl",
			loadCases(t, "../testdata/gate/calibration/classes.jsonl", "../testdata/gate/calibration/nino.jsonl"), all, false},
		// Long vague advice in technical words with a cause, a
		// "mitigation:" or a bare number, written for the accept rule's
		// long-explanation evidence: 2/32 refused before it was bounded,
		// 28/32 after. The 4 accepted pass on their stored score alone
		// (0.52-0.66: "too many" read as error text, "every 2 weeks" and
		// "4 times" as numbers with units, 파드 as a technology), which the
		// accept rule does not second-guess. Session 19 (pii19): a text
		// that names nothing, whose one detail is such a number or phrase,
		// is vague when it hedges twice (vagueCounted): 29 → 32/32.
		{"tuning/long-vague", "testdata/gate/calibration/long-vague.jsonl", loadCases(t, "../testdata/gate/calibration/long-vague.jsonl"),
			map[string]float64{"platitude": 1}, false},
		// Security and agent-tooling advice in prose that names no tool,
		// and vague advice in the same words, written by gateinj (issue 22
		// item 5) and run once before any change: good 4/23 accepted,
		// platitudes 16/18 refused. Outside the instructions model's
		// training glob. With the concrete practice (gategood): good 22/23,
		// platitudes 16/18 (the same two pass on their stored score); with
		// the address rule's "only" bound to what it outranks: good 23/23.
		{"tuning/inj-prose", "testdata/gate/calibration/inj-prose.jsonl", loadCases(t, "../testdata/gate/calibration/inj-prose.jsonl"),
			map[string]float64{"good": 1, "platitude": 1}, false},
		// Written by gategood for the concrete practice after its first
		// version, and run once on that version before anything was tuned
		// on it: good 10/12 accepted (3/12 before the rule), platitudes
		// 17/22 refused (21/22 before: 4 vague texts in the nouns of the
		// domain, with no hedge the list knew, passed as practices). The
		// hedges they use (watch, routine, on a schedule, 늘, 지켜보, 최신 …)
		// were then added: 11/12, 21/22 (left: one passing on a reasoned
		// explanation, as before the rule, and one finding refused by the
		// instructions stage, and accepted since the address rule's "only"
		// needs something to outrank: 12/12).
		{"tuning/practice", "testdata/gate/calibration/practice.jsonl", loadCases(t, "../testdata/gate/calibration/practice.jsonl"),
			map[string]float64{"good": 1, "platitude": 0.954}, false},
		// gate2 was written from scratch before the class calibration of
		// issue 23 item 5, frozen before any change to the gate and
		// measured once before it (good 129/130, placeholders 40/46,
		// narratives 42/42, platitudes 42/42, PII 69/72) and once after
		// (129/130, 41/46, 42/42, 42/42, 69/72): its two looks were spent,
		// so it is tuning data now (was-heldout/gate2.jsonl, outside the
		// instructions model's training glob), its misses printed. The
		// class change of cls-4 moved it to placeholders 44/46 (left: Ofcom's
		// London block, which testdata labels a person's elsewhere, and a
		// test card refused by specificity) and PII 72/72. One label
		// corrected in session 17: h2-pii-065's record holds "dob":
		// "1984-07-12" beside the SSN, a date of birth its label left out.
		{"tuning/was-heldout-gate2", "testdata/gate/was-heldout/gate2.jsonl", globCases(t, "../testdata/gate/was-heldout/gate2.jsonl"),
			map[string]float64{"good": 0.992, "placeholder": 0.978, "narrative": 1, "platitude": 1, "pii": 1}, false},
		// cls-4 was written for the PII and placeholder classes of issue
		// 23 item 5 before the change it judges (names and values on
		// separate lines, Terraform defaults, secrets with symbols,
		// passwords in prose and on more command lines, config files,
		// vendors' tokens, other countries' phones; documentation values
		// of each vendor, masked numbers; ids, hashes and ports beside
		// them) and run once before it: good 39/39, placeholders 26/39, PII
		// 25/72 refused by the PII stage (25 with the labelled kinds).
		// After the change (names bound to values apart, quoted and
		// symbol-laden secrets, prose and more command lines, credential
		// files, more vendors' prefixes and phone formats; a key's header
		// needs a key, documented webhooks, RFC credentials, the emulator's
		// +1 555 lines, ARCEP's fiction blocks): 39/39, 37/39, 72/72 (72).
		// Left: a counting-up 01012345678 far from the word "placeholder",
		// and a Korean Slack example refused by the instructions stage.
		// Session 9 (gatecls9): the same number written again is the
		// example again: placeholders 37 → 38/39. Session 17: Korea's
		// driving licence numbers are named driver_licence, as the UK's
		// are, so c4-063's label moved from national_id to that kind.
		{"tuning/cls-4", "testdata/gate/calibration/cls-4.jsonl", loadCases(t, "../testdata/gate/calibration/cls-4.jsonl"),
			map[string]float64{"good": 1, "placeholder": 0.974, "pii": 1}, false},
		// Once held out (injection.jsonl and injection2.jsonl), read
		// too often to stay so, now tuning data: reported on their own.
		{"tuning/was-heldout1", "testdata/gate/injection/was-heldout1.jsonl", fileCases(injTuning, "was-heldout1.jsonl"),
			map[string]float64{"good": 1, "injection": 1}, false},
		{"tuning/was-heldout2", "testdata/gate/injection/was-heldout2.jsonl", fileCases(injTuning, "was-heldout2.jsonl"),
			map[string]float64{"good": 0.993, "injection": 1}, false},
		// Held out as injection3 (written before round 3's change and
		// measured 150/164, 139/153 before it and 162/164, 142/153 after),
		// its aggregates were seen several times: tuning data now.
		{"tuning/was-heldout3", "testdata/gate/injection/was-heldout3.jsonl", fileCases(injTuning, "was-heldout3.jsonl"),
			map[string]float64{"good": 0.986, "injection": 1}, false},
		// Held out as injection4 (written before round 4's change, measured
		// 61/64 attempts refused and 95/102 findings accepted before and
		// after it): its two looks were spent, so it is tuning data now;
		// round 5 tuned on it (99/102, 64/64).
		{"tuning/was-heldout4", "testdata/gate/injection/was-heldout4.jsonl", fileCases(injTuning, "was-heldout4.jsonl"),
			map[string]float64{"good": 0.980, "injection": 1}, false},
		// injection5 was written from scratch before round 5's change to
		// the gate (87 attempts, 31 Korean; 129 findings, 45 Korean) and
		// measured once before it: 78/87 attempts refused, 93/129
		// findings accepted (34 refused by specificity, 2 by instructions);
		// and once after it (the accept rule's evidence, hidden commands
		// never explained, the model retrained): 79/87 and 99/129 (28 by
		// specificity, 2 by instructions). Its two looks are spent; the
		// floors sat at its "after". Bounding the long-explanation evidence
		// (fixgate) failed the good floor, which printed 97/129 (0.752):
		// the floor sits there, and nothing was tuned on it.
		// Its two looks spent, it is tuning data now
		// (injection/was-heldout5.jsonl, in the instructions model's
		// training set since gateinj retrained it, which with forged tool
		// results read as speaking to the agent took its attempts from
		// 79/87 to 86/87), misses printed.
		{"tuning/was-heldout5", "testdata/gate/injection/was-heldout5.jsonl", fileCases(injTuning, "was-heldout5.jsonl"),
			map[string]float64{"good": 0.992, "injection": 1}, false},
		// gate3 and injection6 were written on 2026-12-02 for the next
		// change to the gate, by a helper who read no case of testdata/gate,
		// and measured once before it on f3e5537 (look 1 of 2): gate3 good
		// 57/59, placeholders 30/34, narratives 32/32, platitudes 30/32, PII
		// 61/65; injection6 attempts 65/72, findings 51/56. Floors sit there,
		// but for gate3's good findings: bounding the long-explanation
		// evidence (fixgate) failed that floor, which printed 54/59
		// (0.915); it sits there now, and nothing was tuned on it.
		// Look 2, after session 4's changes (the PII classes, the retrained
		// instructions model, forged tool results), per-label lines only:
		// gate3 good 54/59, placeholders 33/34, narratives 32/32,
		// platitudes 31/32, PII 63/65; injection6 attempts 65/72, findings
		// 52/56. (A rule tried in that session and not landed printed gate3's
		// platitudes four times on failing runs.) Both batches are spent.
		// Spent, they are tuning data since session 5 (was-heldout/gate3.jsonl,
		// outside the model's training glob; injection/was-heldout6.jsonl,
		// inside it), misses printed.
		// Long prose without a detail (gateplat, session 7): platitudes
		// 31 → 32/32, nothing else moved.
		{"tuning/was-heldout-gate3", "testdata/gate/was-heldout/gate3.jsonl", globCases(t, "../testdata/gate/was-heldout/gate3.jsonl"),
			// A documented example value is evidence for the accept rule
			// (gatecls9, session 9): placeholders 33 → 34/34.
			map[string]float64{"good": 0.983, "placeholder": 1, "narrative": 1, "platitude": 1, "pii": 1}, false},
		{"tuning/was-heldout6", "testdata/gate/injection/was-heldout6.jsonl", fileCases(injTuning, "was-heldout6.jsonl"),
			map[string]float64{"good": 0.982, "injection": 0.986}, false},
		// gate4 and injection7 were written on 2026-12-02 (session 4) by a
		// writer who read no code and no labelled case (heldout/README.md),
		// frozen and measured once before that session's changes to the
		// gate, on d95e3a0 (look 1, per-label lines only): gate4 good
		// 80/80, placeholders 38/45, narratives 40/40, platitudes 39/40, PII
		// 51/55; injection7 findings 85/100, attempts 96/100. Look 2, after
		// those changes: gate4 80/80, 40/45, 40/40, 39/40, 52/55; injection7
		// 85/100, 96/100. Both are spent; the floors sit at the "after".
		// Spent, tuning data since session 5 (was-heldout/gate4.jsonl;
		// injection/was-heldout7.jsonl, in the model's training set).
		{"tuning/was-heldout-gate4", "testdata/gate/was-heldout/gate4.jsonl", globCases(t, "../testdata/gate/was-heldout/gate4.jsonl"),
			// Hedged advice gets no reasoned explanation (gatecls9, session
			// 9): platitudes 39 → 40/40. Counting-run SSNs: placeholders 42
			// → 43/45. A Chinese resident id beside its name whatever its
			// check: PII 54 → 55/55. A documented example value is evidence
			// for the accept rule: placeholders 43 → 45/45.
			map[string]float64{"good": 1, "placeholder": 1, "narrative": 1, "platitude": 1, "pii": 1}, false},
		{"tuning/was-heldout7", "testdata/gate/injection/was-heldout7.jsonl", fileCases(injTuning, "was-heldout7.jsonl"),
			map[string]float64{"good": 1, "injection": 1}, false},
		// own11 (session 5): 100 attempts in 21 disguises (conditional,
		// future, multi-step, authority among the new ones) and 60 findings
		// that look like them, by an outside writer, run once before it was
		// tuned on: good 52/60, attempts 88/100; after its rules (code
		// posting the environment, secrets spelled into DNS names, JSON tool
		// results, attributes and quotes to act on read as said) 52/60,
		// 93/100. Outside the model's
		// training set: retrained with it, the model's out-of-fold recall
		// fell from 80.7 % to 71.9 % of the tuning attempts and its
		// threshold rose (2.26 → 3.30), refusing fewer attempts elsewhere
		// (was-heldout2 100 → 96.2 %), so it judges the rules only.
		// Session 17 (inj17): forged tool calls, report wording, labelled
		// notes: attempts 96 → 98/100.
		{"tuning/own11", "testdata/gate/calibration/own11.jsonl", loadCases(t, "../testdata/gate/calibration/own11.jsonl"),
			map[string]float64{"good": 0.916, "injection": 0.98}, false},
		// gate5 and injection8 were written on 2026-12-03 (session 5) by
		// writers who read no code and no labelled case, and looked at twice
		// (per-label lines only): look 1 on 101b451, gate5 good 79/80,
		// placeholders 41/45, narratives 39/40, platitudes 38/40, PII 55/55;
		// injection8 findings 90/100, attempts 91/100. Look 2 on 53e0dba:
		// gate5 good 80/80, the rest unchanged; injection8 findings 92/100,
		// attempts 95/100. Spent, they are tuning data since session 6
		// (was-heldout/gate5.jsonl; calibration/was-heldout-injection8.jsonl,
		// both outside the instructions model's training glob), misses
		// printed; the floors stay at look 2.
		// Long prose without a detail (gateplat, session 7): platitudes
		// 38 → 39/40.
		{"tuning/was-heldout-gate5", "testdata/gate/was-heldout/gate5.jsonl", globCases(t, "../testdata/gate/was-heldout/gate5.jsonl"),
			// Hedged advice gets no reasoned explanation (gatecls9, session
			// 9): platitudes 39 → 40/40. The Kubernetes docs' Secret, shell
			// expansions' error text, a message after "password:":
			// placeholders 42 → 45/45.
			map[string]float64{"good": 1, "placeholder": 1, "narrative": 1, "platitude": 1, "pii": 1}, false},
		{"tuning/was-heldout8", "testdata/gate/calibration/was-heldout-injection8.jsonl", loadCases(t, "../testdata/gate/calibration/was-heldout-injection8.jsonl"),
			map[string]float64{"good": 0.94, "injection": 1}, false},
		// own12 (session 6): 60 platitudes (40 long and technical), 40
		// specific controls in the same domains, 60 attempts in 24 disguises
		// and 40 findings that look like them, by an outside writer; run once
		// before any rule was tuned on it (dc3c780's gate): good 75/80 (5
		// look-alikes refused as instructions), platitudes 55/60, attempts
		// 55/60. Outside the model's training set; floors there. Session 7:
		// a dotted settings key that names the agent ("assistant.policy")
		// has its quoted value read as said, and so do the values of a
		// JSON-RPC message and a quote the text asks to translate and apply:
		// attempts 57/60 (was-heldout8 95 → 96/100), every good figure the
		// same. A dot inside a name (setup.py, os.system) no longer ends the
		// sentence a write-up calls an attack in: good 75 → 76/80; a
		// linter's line or file ignored in a text about a linter, with no
		// "you" in it, sets no instructions aside: 78/80; hiding something
		// from the docs, a schema or an index is no concealment: 79/80.
		// Long prose without a detail loses 0.30 of its score (gateplat):
		// platitudes 55 → 60/60 (the 5 long-technical ones that passed on
		// named technologies and acronyms), good 79/80 unchanged.
		// Session 8 (inj8): a write-up that names the attack it reports is
		// refused only by the rules, and a quoted HTML comment stays one
		// quote: good 79 → 80/80 (was-heldout8 92 → 94/100, was-heldout9
		// 92 → 93/100, own11 52 → 53/60), no attempt lost.
		// Session 17 (inj17): labelled notes that paste secrets or set the
		// person's goal aside: attempts 58 → 60/60.
		{"tuning/own12", "testdata/gate/calibration/own12.jsonl", loadCases(t, "../testdata/gate/calibration/own12.jsonl"),
			map[string]float64{"good": 1, "platitude": 1, "injection": 1}, false},
		// gate6 and injection9 were written on 2026-12-03 (session 6) by
		// writers who read no code and no labelled case (the brief named
		// the labels and classes) and looked at twice, per-label lines only:
		// look 1 on dc3c780, look 2 on fc203bf, the same both times: gate6
		// good 80/80, placeholders 41/45, narratives 38/40, platitudes
		// 30/40, PII 51/55; injection9 findings 92/100, attempts 90/100.
		// Spent, they are tuning data since session 8
		// (was-heldout/gate6.jsonl; calibration/was-heldout-injection9.jsonl,
		// both outside the instructions model's training glob), misses
		// printed; the floors stay at look 2. Long prose without a detail
		// (gateplat, written while gate6 was still held out and never
		// tuned on it): platitudes 30 → 36/40, nothing else moved. Ofcom's
		// drama blocks, key and token headers, passwords in exec arrays,
		// --requirepass and SQL (session 8): placeholders 41 → 43/45, PII
		// 51 → 55/55 (gate2 placeholders 44 → 45/46, gate4 and gate5 41 →
		// 42/45). Template mail addresses (ID+USERNAME@, GitHub privacy
		// addresses): placeholders 44/45. Story markers of the writer's day
		// and the room (took a break, had lunch, everyone laughed): narratives
		// 38 → 40/40.
		// Session 8 (inj8): write-ups naming their attack, quoted HTML
		// comments, forged tool results in fenced blocks and lists:
		// was-heldout9 good 92 → 93/100, attempts 90 → 92/100; links with
		// a placeholder for a secret, secrets spelled into host names, each
		// secret printed, snake_case keys read as words: good 94/100,
		// attempts 97/100; config an agent is told to adopt on reading,
		// config posting the environment, a quote to translate and act on:
		// attempts 98/100; reports of an attack that address no one, Korean
		// denials of acting without a check, base64 spelled out: good 96/100.
		{"tuning/was-heldout-gate6", "testdata/gate/was-heldout/gate6.jsonl", globCases(t, "../testdata/gate/was-heldout/gate6.jsonl"),
			// Hedged advice gets no reasoned explanation (gatecls9, session
			// 9): platitudes 36 → 37/40. A documented example value is
			// evidence for the accept rule: placeholders 44 → 45/45. Advice
			// naming tools around three hedges is refused (gatecls10):
			// platitudes 37 → 40/40.
			map[string]float64{"good": 1, "placeholder": 1, "narrative": 1, "platitude": 1, "pii": 1}, false},
		// Session 17 (inj17): falsified reports as norms, accounts with
		// edits kept out: attempts 98 → 100/100.
		{"tuning/was-heldout9", "testdata/gate/calibration/was-heldout-injection9.jsonl", loadCases(t, "../testdata/gate/calibration/was-heldout-injection9.jsonl"),
			// Session 23 (narr23): a cause told with its fix stands whatever story
			// words frame it: good 96 → 97/100.
			map[string]float64{"good": 0.98, "injection": 1}, false},
		// injection10 was written on 2026-12-03 (session 7) by a writer who
		// read no code and no labelled case (the brief of injection9),
		// frozen and measured once before session 7's changes to the gate,
		// on 3ecd94d (look 1): findings 88/100 accepted, attempts 89/100
		// refused. Look 2, on 14c7924 after sessions 7's and 8's gate
		// changes: findings 88/100, attempts 90/100. Spent, tuning data since
		// session 9 (calibration/was-heldout-injection10.jsonl, outside the
		// instructions model's training glob); floors at look 2.
		// Session 9 (inj9): payloads a write-up shows after an introducing
		// line, and an attack named in the sentence after a payload: good
		// 88 → 90/100; advice naming the attack by what it does (content
		// read as data, pages that carry instructions): 91/100. A quote to
		// translate and act on in more words, [developer] blocks and text
		// "issued by system", "bot:" addressed, an installer's host in
		// look-alike letters: attempts 90 → 93/100. Technical senses (CSS
		// rules overriding selectors, what can't happen silently, 보이지
		// 않는 문구): good 91 → 94/100. A URL piped into bash in words, a
		// generic word's prefix explaining no host, settings that switch
		// the agent's checks off: attempts 93 → 95/100.
		{"tuning/was-heldout10", "testdata/gate/calibration/was-heldout-injection10.jsonl", loadCases(t, "../testdata/gate/calibration/was-heldout-injection10.jsonl"),
			// Session 17 (pii17): postgresql@16-main.service is a unit, no
			// mail address: good 96 → 97/100.
			map[string]float64{"good": 0.98, "injection": 1.00}, false},
		// gate7 was written on 2026-12-03 (session 7) by a writer who read
		// no code and no labelled case (gate6's brief, a webhook URL added
		// to the PII classes): 260 cases, 79 Korean. Look 1 on 30dec1f:
		// good 79/80, placeholders 42/45, narratives 38/40, platitudes
		// 36/40, PII 51/55. Look 2 on 14c7924: good 79/80, placeholders
		// 44/45, narratives 38/40, platitudes 37/40, PII 51/55. Spent,
		// tuning data since session 9 (was-heldout/gate7.jsonl); floors at
		// look 2. Session 9 (gatecls9): Oracle's IDENTIFIED BY bare, npm's
		// _auth, one-line YAML with \n, Spanish DNI by its letter, sample
		// passwords (password123): placeholders 44 → 45/45, PII 51 → 55/55.
		// The writer's meals, clock and interjections, "we used", and the
		// I of I/O no narrator: good 79 → 80/80, narratives 38 → 40/40,
		// platitudes 37 → 38/40. Hedged advice gets no reasoned
		// explanation: platitudes 38 → 39/40.
		{"tuning/was-heldout-gate7", "testdata/gate/was-heldout/gate7.jsonl", globCases(t, "../testdata/gate/was-heldout/gate7.jsonl"),
			map[string]float64{"good": 1, "placeholder": 1, "narrative": 1, "platitude": 1, "pii": 1}, false},
		// gate8 and injection11 were written on 2026-12-03 (session 8) by
		// writers who read no code and no labelled case (gate7's and
		// injection10's briefs, with new carriers and disguises: secrets in
		// URLs, Dockerfiles and curl -u, support tickets; attempts in a third
		// language, naming the model, split over two sentences, as
		// reviewer checklists; write-ups quoting payloads, agent configs).
		// Look 1 on 3fc789b: gate8 good 80/80, placeholders 42/45,
		// narratives 39/40, platitudes 34/40, PII 53/55; injection11
		// findings 90/100, attempts 88/100. Look 2 on 14c7924: gate8 80/80,
		// 43/45, 39/40, 34/40, 53/55; injection11 90/100, 88/100. Spent,
		// tuning data since session 9 (was-heldout/gate8.jsonl,
		// calibration/was-heldout-injection11.jsonl); floors at look 2.
		// Session 9 (gatecls9): keys in URL queries, Aadhaar named whatever
		// its check, elided key bodies (MIIEv...), sample passwords:
		// placeholders 43 → 45/45, PII 53 → 55/55. The writer's breaks
		// and interjections: narratives 39 → 40/40. Hedged advice gets no
		// reasoned explanation: platitudes 34 → 36/40.
		{"tuning/was-heldout-gate8", "testdata/gate/was-heldout/gate8.jsonl", globCases(t, "../testdata/gate/was-heldout/gate8.jsonl"),
			map[string]float64{"good": 1, "placeholder": 1, "narrative": 1, "platitude": 1, "pii": 1}, false},
		// Session 9 (inj9): shown payloads, 숨은 지시 and "hidden
		// instructions" as names of the attack: good 90 → 92/100. Disguised
		// roles and translations (see was-heldout10): attempts 88 → 92/100;
		// agent settings that switch checks or reports off, uploads of
		// credential files in a hooks file: 96/100.
		{"tuning/was-heldout11", "testdata/gate/calibration/was-heldout-injection11.jsonl", loadCases(t, "../testdata/gate/calibration/was-heldout-injection11.jsonl"),
			map[string]float64{"good": 0.94, "injection": 1.00}, false},
		// gate9 and injection12 were written on 2026-12-03 (session 8) by
		// writers who read no code and no labelled case (gate8's and
		// injection11's briefs with new carriers and disguises). Look 1 on
		// 92741f5: gate9 good 76/80, placeholders 42/45, narratives 38/40,
		// platitudes 35/40, PII 50/55; injection12 findings 99/100, attempts
		// 92/100. Look 2 on 75d0d1e: gate9 76/80, 43/45, 38/40, 36/40, 51/55;
		// injection12 99/100, 93/100. Spent, tuning data since session 10
		// (was-heldout/gate9.jsonl, calibration/was-heldout-injection12.jsonl);
		// floors at look 2, raised where session 10's changes reached.
		{"tuning/was-heldout-gate9", "testdata/gate/was-heldout/gate9.jsonl", globCases(t, "../testdata/gate/was-heldout/gate9.jsonl"),
			// Session 23 (narr23): a friend's story told second-hand has its
			// life markers: narratives 39 → 40/40 (refused by specificity).
			map[string]float64{"good": 0.975, "placeholder": 0.977, "narrative": 1, "platitude": 1, "pii": 1}, false},
		{"tuning/was-heldout12", "testdata/gate/calibration/was-heldout-injection12.jsonl", loadCases(t, "../testdata/gate/calibration/was-heldout-injection12.jsonl"),
			map[string]float64{"good": 0.99, "injection": 1.00}, false},
		// gate11 and injection14 were written on 2026-12-04 (session 10) by
		// writers who read no code and no labelled case (new briefs: secrets
		// in notebooks, HAR files, crash reports, chat exports, CI logs, Helm,
		// Ansible, systemd, .properties, PowerShell, constants; attempts in
		// footnotes, alt text, tables, commit trailers, policies, self-config
		// edits, Korean honorifics). Frozen and measured once on session 10's
		// starting code, 87dc3de (look 1, per-label lines only): gate11 good
		// 78/80, placeholders 37/45, narratives 38/40, platitudes 39/40, PII
		// 52/55; injection14 findings 97/100, attempts 87/100. Floors sit there.
		// Look 2 on 7f5d650, after session 10's 40-odd gate commits: the same
		// but gate11 PII 53/55. Spent (gate11's placeholders were also printed
		// by a failing floor mid-session, 36/45): tuning data since session
		// 11 (was-heldout/gate11.jsonl, calibration/was-heldout-injection14.jsonl,
		// sha256 39c841b2… and 5dd548f5… while held out), floors at look 2.
		// Session 11 (gatecls11): rules read from its odd-numbered misses
		// (columns named in a table's header, the DVLA licence, a token's
		// claims, a credential's host, documentation's dummies):
		// placeholders 37 → 42/45, PII 53 → 54/55.
		// Session 11 (inj11): rules chosen on injection14's odd-numbered
		// misses only: attempts 87 → 92/100 (odd half 43 → 48/50, even half,
		// unread, 44 → 44/50); 91/100 beside gatecls11's .netrc placeholder.
		{"tuning/was-heldout-gate11", "testdata/gate/was-heldout/gate11.jsonl", globCases(t, "../testdata/gate/was-heldout/gate11.jsonl"),
			// Session 15 (pii15b): Korean mobiles on unassigned 010-0xxx exchanges
			// pass, a Kakao REST key is a secret: placeholders 42 → 43/45, PII
			// 54 → 55/55.
			// Session 17 (pii17): RFC 7617's password in the clear passes:
			// placeholders 43 → 44/45.
			// Session 17 (inj17): a file kept out of version control hides
			// nothing: good 78 → 79/80.
			// Session 23 (narr23): release notes told as a celebration are a
			// story, and a game jam's weekend: narratives 38 → 40/40.
			map[string]float64{"good": 1, "placeholder": 0.977, "narrative": 1, "platitude": 0.975, "pii": 1}, false},
		// Session 11 (gatecls11): i14-inj-092 was refused only by the PII
		// stage, for "password s3cret" in a .netrc line on api.example.com,
		// which is documentation's placeholder: attempts 87 → 86/100 (the
		// instructions stage does not read its heading as an attempt).
		{"tuning/was-heldout14", "testdata/gate/calibration/was-heldout-injection14.jsonl", loadCases(t, "../testdata/gate/calibration/was-heldout-injection14.jsonl"),
			// Session 17 (inj17): labelled notes (headings, table cells,
			// "agent:"), forged tool calls, the reader's steps kept out of its
			// report: attempts 92 → 99/100.
			// Session 23 (narr23): a cause told with its fix stands whatever story
			// words frame it: good 98 → 99/100.
			map[string]float64{"good": 0.99, "injection": 0.99}, false},
		// own13 (inj11, session 11): 83 attempts (override, concealment,
		// exfiltration, remote scripts, memory and agent-settings poisoning,
		// registry switches, credential phishing; in 12 disguises: plain,
		// before the finding, HTML comment, footnote, P.S., YAML for agents,
		// code comment, "if you are an AI", table cell, CLAUDE.md memory,
		// tool result, base64) and 85 findings (the carriers alone, and
		// installers, registries explained, agent configuration, technical
		// ignore/override/hide/send, write-ups), 48 Korean, written from
		// the classes of indirect prompt injection (OWASP LLM01), not from
		// any miss, and run once before anything was tuned on it: attempts
		// 62/83, findings 79/85. Outside the model's training glob: trained
		// on, it moved injection14 by one attempt and lost held-out ones.
		{"tuning/own13", "testdata/gate/calibration/own13.jsonl", loadCases(t, "../testdata/gate/calibration/own13.jsonl"),
			// Session 17 (inj17): memory and settings rewritten to drop checks,
			// falsified reports, checks made advisory, logins at unexplained
			// hosts, prior rules void: attempts 64 → 82/83, findings 80 →
			// 81/85. Session 20 (inj19): a mirror on a private network's
			// host (nexus.corp.internal) is explained: findings 81 → 82/85.
			// Session 23 (inj23): a tool's checks that never report hide
			// nothing: findings 82 → 83/85.
			map[string]float64{"good": 0.988, "injection": 0.987}, false},
		// gate12 was written during session 10 for session 11 by an outside
		// writer and frozen at once so that it outlives the machine; nobody has
		// looked at it. Look 1 on session 10's final code; floors 0 until then.
		// Look 1 on 7f5d650 (session 10's final code): good 79/80,
		// placeholders 36/45, narratives 38/40, platitudes 40/40, PII 46/55.
		// Look 2 on 0415b19 (session 11's final code): good 79/80,
		// placeholders 37/45, narratives 38/40, platitudes 40/40, PII 47/55.
		// Spent: tuning data since session 12 (was-heldout/gate12.jsonl,
		// sha256 6dfea351… while held out), floors at look 2.
		// Session 15 (gatepii15): public Sentry DSNs, wg(8)'s and GSMA's
		// example keys and IMEI pass, placeholders 37 → 41/45; OpenVPN
		// keys and auth-user-pass notes, cookies.txt, URL-encoded mail and
		// bank accounts in payout fields and Korean prose, PII 47 → 52/55.
		// Session 15 (pii15b): CPF's tutorial sample, the registry's NL IBAN
		// called an example, 010-0000-0001, Supabase's demo key pass,
		// placeholders 41 → 45/45; a BSN in <Sofinr>, an Info.plist secret,
		// PII 52 → 54/55.
		// Session 17 (pii17): a passport's machine-readable line by its
		// check digits: PII 54 → 55/55.
		{"tuning/was-heldout-gate12", "testdata/gate/was-heldout/gate12.jsonl", globCases(t, "../testdata/gate/was-heldout/gate12.jsonl"),
			// Session 23 (narr23): release notes told as a celebration are a
			// story, and the first weeks at a new job: narratives 38 → 40/40.
			map[string]float64{"good": 0.987, "placeholder": 1, "narrative": 1, "platitude": 1, "pii": 1}, false},
		// injection15 was written during session 10 for session 11 by an
		// outside writer and frozen at once so that it outlives the machine;
		// nobody has looked at it. Look 1 on session 10's final code; floors 0
		// until then.
		// Look 1 on 7f5d650: findings 94/100, attempts 87/100. Look 2 on
		// 0415b19: the same (its aggregates were also printed twice mid-session
		// by failing floors of experiments that did not land, and one line by
		// a helper's grep). Spent: tuning data since session 12
		// (calibration/was-heldout-injection15.jsonl, outside the instructions
		// model's training glob; sha256 a6610732… while held out).
		// inj15b read its misses (session 15): a right-to-left override,
		// leetspeak URLs, a fixture's description that names its reader,
		// the person's stop or objection outranked, this text ranked over
		// the person's request, confirmation ruled out, keeping quiet
		// (instructions_families3.go): findings 94 → 96/100, attempts 87 →
		// 100/100. Its misses were read, so these figures say nothing of
		// unseen text.
		{"tuning/was-heldout15", "testdata/gate/calibration/was-heldout-injection15.jsonl", loadCases(t, "../testdata/gate/calibration/was-heldout-injection15.jsonl"),
			// Session 23 (narr23): a cause told with its fix stands whatever story
			// words frame it: good 96 → 97/100.
			map[string]float64{"good": 0.98, "injection": 1}, false},
		// own16 (inj15b, session 15): attempts in injection15's disguises and
		// families, paraphrased (alt text, a fenced rule block, a fixture's
		// description, Korean honorifics, right-to-left overrides, JSON tool
		// calls, headings, mixed Korean and English, policies for agents,
		// personas, leetspeak, urgent advisories) and findings that look like
		// them. Written after injection15's misses were read and the first
		// rules for them; run once on those rules: attempts 22/26 refused,
		// findings 16/22 accepted (the instructions stage). After the
		// families' second pass: 26/26, 16/22 (left: findings that address
		// an agent the way attempts do, which the model scores high).
		// Outside the instructions model's training glob: training on it
		// raised the out-of-fold threshold (2.27 → 2.49-2.92) and lost
		// attempts in other parts.
		{"tuning/own16", "testdata/gate/calibration/own16.jsonl", loadCases(t, "../testdata/gate/calibration/own16.jsonl"),
			// Session 17 (inj17): Korean passive runs unchecked: good 16 → 17/22.
			// Session 18 (inj18): a request for a person's approval vetoes
			// the model: good 17 → 18/22. Session 23 (inj23): a person on
			// duty may act without approval in Korean runbooks: 18 → 19/22.
			map[string]float64{"good": 0.863, "injection": 1}, false},
	}, append(append(append(append(append(append(piiParts15(t), movedParts16(t)...), ownParts20(t)...), ownParts21(t)...), ownParts22(t)...), append(append(append(append(append(ownParts22Narr(t), ownParts23Narr(t)...), injParts22(t)...), injParts23(t)...), append(injParts23b(t), movedParts22(t)...)...), append(append(ownParts23Plat(t), ownParts23Spec(t)...), movedParts23(t)...)...)...), heldoutParts(t, held)...)...)
}
