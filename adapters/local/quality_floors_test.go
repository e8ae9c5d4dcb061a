package local

// retrievalFloors are the figures each corpus part reached, less rounding:
// the corpus and the embedder are deterministic, so a drop is a regression
// (the approximate vector index moves a query now and then: a floor leaves
// it that much). TestRetrievalQuality fails below them. Every part keeps
// its look-alikes apart (a floor of 1); a part with pairs-tuner.jsonl also
// has floors for those pairs.
var retrievalFloors = map[string]partFloors{
	// paraphrase recall@5: 158/202 with round 6's feedback (152 before).
	tuningPart.name: {keyword1: 0.99, keyword5: 0.99, para1: 0.44, para5: 0.78, koEn5: 0.99, enKo5: 0.89, korean5: 0.92, rewordings: 0.85, tunerRewordings: 0.99},
	// Issue 23's first held-out batch, tuning data since round 2.
	tuning2Part.name: {keyword1: 0.99, keyword5: 0.99, para1: 0.45, para5: 0.72, koEn5: 0.99, enKo5: 0.99, korean5: 0.94, rewordings: 0.99},
	// Round 2's held-out batch, tuning data since round 3.
	// paraphrase recall@5: 64/80 with round 6's feedback (63 before).
	tuning3Part.name: {keyword1: 0.99, keyword5: 0.99, para1: 0.52, para5: 0.79, koEn5: 0.99, enKo5: 0.99, korean5: 0.95, rewordings: 0.99},
	// Round 3's held-out batch, tuning data since round 4. Its floors
	// are still the figures measured as held-out on the code it was
	// written against (2026-12-02, round 3, commit acfb251) and again
	// once round 3's change was done (commit d74954c), unchanged, not
	// goals: keyword
	// 1.000 / 1.000, paraphrase 0.850 / 0.950, ko→en 1.000, en→ko
	// 1.000, Korean 1.000 (recall@5), rewordings 16/20, look-alikes
	// merged 2/20 (the goal is none); round 4 (a plain
	// setting given with =, a command's options reordered) keeps
	// all 20 look-alikes apart, rewordings still 16/20 (17/20 later, 18/20
	// since session 15's quotes and negations).
	tuning4Part.name: {keyword1: 0.99, keyword5: 0.99, para1: 0.84, para5: 0.94, koEn5: 0.99, enKo5: 0.99, korean5: 0.99, rewordings: 0.9},
	// Round 4's held-out batch, tuning data since round 5. Its floors
	// are the figures measured as held-out on the code it was written
	// against (commit f566d7a) and again after round 4's change
	// (744dbb6): keyword 1.000 / 1.000, paraphrase 0.875 / 0.938,
	// ko→en 1.000 (2), en→ko 1.000 (4), Korean 0.889 / 0.944,
	// rewordings 24/26, look-alikes merged 2/27; round 5 (a noun
	// swapped, one file in two places) keeps all 27 apart, and a
	// qualified name read as the same name merges 25/26.
	tuning5Part.name: {keyword1: 0.99, keyword5: 0.99, para1: 0.87, para5: 0.99, koEn5: 0.99, enKo5: 0.99, korean5: 0.99, rewordings: 0.96},
	// Round 5's held-out batch, tuning data since round 6. Its floors
	// are the figures measured as held-out on the code it was written
	// against (2026-12-02, round 5, commit eda42ca): keyword 1.000 /
	// 1.000, paraphrase 0.967 / 1.000, ko→en 0.933 / 0.967 (30), en→ko
	// 0.867 / 0.967 (30), Korean 0.971 / 0.986 (70), rewordings 29/32,
	// look-alikes merged 1/33; after round 5's change (commit 286960a,
	// second and last look): recall the same, rewordings 30/32,
	// look-alikes 0/33.
	// rewordings merged: 31/32 since session 11's phrase swaps and parses (30 before).
	tuning6Part.name: {keyword1: 0.99, keyword5: 0.99, para1: 0.96, para5: 0.99, koEn5: 0.96, enKo5: 0.96, korean5: 0.98, rewordings: 0.96},
	// Round 6's held-out batch (heldout6/), written on 2026-12-02 by a
	// writer who read no code, no lexicon and no other part's data (its
	// README), frozen and measured once before round 6's change, on
	// d95e3a0 with the panic fix d991518 (before it, contributing the
	// batch crashed the engine): keyword 1.000 / 1.000 (90), paraphrase
	// 0.456 / 0.800 (90), ko→en 0.933 / 0.967 (30), en→ko 0.852 / 1.000
	// (27), Korean 0.833 / 0.952 (84), rewordings 30/40, look-alikes
	// 0/40. Look 2, after round 6's change (pseudo-relevance feedback,
	// stored analyses) on 2026-12-02: paraphrase r@5 0.811, everything
	// else the same. Both looks are spent; the floors sit at the "after".
	// Tuning data (retrieval7/) since session 5.
	// pairs-tuner.jsonl: 120 pairs an outside writer wrote for
	// tuning in session 5, run once before any change: 49/50
	// rewordings merged, 1/70 look-alikes merged (two React hooks
	// of one family); after sameFrame 49/50, 0/70.
	// tuner-written rewordings merged: 50/50 since session 11's parses (49 before).
	tuning7Part.name: {keyword1: 0.99, keyword5: 0.99, para1: 0.45, para5: 0.82, koEn5: 0.96, enKo5: 0.99, korean5: 0.95, rewordings: 0.75, tunerRewordings: 0.99},
	// Session 5's held-out batch (heldout7/), written on 2026-12-03 by a
	// writer who read no project file (its README), frozen and measured
	// once before session 5's changes, on 101b451: keyword 1.000 / 1.000
	// (90), paraphrase 0.767 / 0.933 (90), ko→en 0.367 / 0.567 (30),
	// en→ko 0.926 / 1.000 (27), Korean 0.702 / 0.833 (84), rewordings
	// 37/40, look-alikes merged 1/40; the semantic stand-in 40/40, 0/40.
	// Look 2 on the session's final code (53e0dba): every figure the
	// same. Spent: tuning data (retrieval8/) since session 6.
	// ko→en recall@5: 26/30 with session 8's glossary of native words (20 with session 7's transliteration, 17 before).
	// korean recall@5: 80/84 with the glossary (73 before).
	// rewordings merged: 38/40 since names with digits (psycopg2, gp3) are atoms both share (37 before).
	// look-alikes kept apart: 40/40 since a lone flag each way is a swap (39/40 before: h7p-63).
	// rewordings merged: 39/40 since session 11's restated spans and settings given values (38 before).
	tuning8Part.name: {keyword1: 0.99, keyword5: 0.99, para1: 0.76, para5: 0.93, koEn5: 0.86, enKo5: 0.99, korean5: 0.95, rewordings: 0.97},
	// Session 7's held-out batch (heldout9/), written on 2026-12-03 by a
	// writer who read no project file (its README), frozen and measured
	// once before session 7's changes, on 987b5f8: keyword 1.000 / 1.000
	// (90), paraphrase 0.844 / 0.978 (90), ko→en 0.967 / 0.967 (30),
	// en→ko 0.963 / 1.000 (27), Korean 0.952 / 0.988 (84), rewordings
	// 38/40, look-alikes merged 2/40; the semantic stand-in 40/40, 0/40.
	// The writer's Korean queries on English findings keep a tool name
	// or an error word (its README says so), which is why ko→en is far
	// above tuning-8's 0.567. Look 2, on 14c7924 after session 8's
	// transliteration, glossary and look-alike rules: the same but ko→en
	// 0.967 / 1.000 and Korean 0.952 / 1.000; rewordings 38/40,
	// look-alikes merged 2/40. Spent: tuning data (retrieval9/) since
	// session 9, floors at look 2.
	// look-alikes kept apart: 40/40 since JSON members and settings in prose are read (38/40 before).
	// Rewordings 39/40 since a number after a conjunction counts no word
	// before it (session 20: h8p-27's "and 0600").
	// Paraphrase recall@1 0.856 since session 22's glossary nouns (0.844 before).
	tuning9Part.name: {keyword1: 0.99, keyword5: 0.99, para1: 0.85, para5: 0.97, koEn5: 0.96, enKo5: 0.99, korean5: 0.98, rewordings: 0.97},
	// Session 8's held-out batch (heldout10/), written on 2026-12-03 by
	// a writer who read no project file (its README; 19 of its 30 Korean
	// queries on English findings hold no Latin letter). Look 1 on
	// 3fc789b, after session 8's transliteration and glossary had
	// landed: keyword 1.000 / 1.000 (90), paraphrase 0.833 / 0.922 (90),
	// ko→en 0.567 / 0.900 (30), en→ko 0.778 / 1.000 (27), Korean 0.833 /
	// 0.952 (84), rewordings 35/40, look-alikes merged 2/40; the
	// semantic stand-in 40/40, 0/40. Floors sit there. Look 2, on
	// 14c7924 after the session's antonym rule: every figure the same.
	// Spent: tuning data (retrieval10/) since session 9.
	// look-alikes kept apart: 40/40 since hexadecimal codes, JSON members and compound settings are read (38/40 before).
	// rewordings merged: 36/40 since session 11's settings given values (35 before); 38/40
	// since session 15's quotes that are no apostrophes and negations weighed by what they deny.
	// ko→en recall@5 0.933 since session 23's native words in the glossary (0.900 before).
	tuning10Part.name: {keyword1: 0.99, keyword5: 0.99, para1: 0.83, para5: 0.92, koEn5: 0.93, enKo5: 0.99, korean5: 0.95, rewordings: 0.95},
	// Session 9's held-out batch (heldout11/: rabbitmq, varnish, ldap,
	// jenkins, julia, perl, hdfs, snmp, clickhouse), written during
	// session 9 by a writer who read no project file (its README), frozen
	// and measured once on 6a37db9 (look 1, after the session's first
	// look-alike commit 72027a3): keyword 1.000 / 1.000 (90), paraphrase
	// 0.878 / 0.978 (90), ko→en 0.467 / 0.833 (30), en→ko 0.750 / 0.850
	// (40), Korean 0.690 / 0.915 (71), rewordings 35/40, look-alikes
	// merged 0/40; the semantic stand-in 40/40, 0/40. Floors sit there. Look 2 on
	// 7f5d650 (session 10's final code): every figure the same. Spent:
	// tuning data (retrieval11/) since session 11.
	// rewordings merged: 39/40 since session 11's restated spans, qualified
	// commands and settings given values, read from its misses (35 before).
	// Paraphrase recall@1 80/90 since session 22's 시도, 관리, … (79/90 before).
	// ko→en recall@5 26/30 and Korean 66/71 since upsert is a loanword (25/30, 65/71 before).
	tuning11Part.name: {keyword1: 0.99, keyword5: 0.99, para1: 0.88, para5: 0.97, koEn5: 0.86, enKo5: 0.85, korean5: 0.92, rewordings: 0.97},
	// Session 10's held-out batch (heldout13/: openstack, qtqml, powerbi,
	// flink, intune, nextcloud, homeassistant, freebsd, openwrt), written
	// during session 10 by a writer who read no project file (its README),
	// frozen and measured once on cb82899 (the session's starting code):
	// keyword 1.000 / 1.000 (90), paraphrase 0.867 / 0.989 (90), ko→en
	// 0.900 / 1.000 (30), en→ko 0.878 / 0.980 (49), Korean 0.919 / 1.000
	// (62), rewordings 38/40, look-alikes merged 1/40; the semantic
	// stand-in 40/40, 0/40. Floors sit there. Look 2 on 7f5d650: every
	// figure the same. Spent: tuning data (retrieval13/) since session 11.
	// look-alikes kept apart: 40/40 since a key's value swapped in prose
	// (mode: restart, mode: single) is a phrase swap (39/40 before, h13p-64).
	tuning13Part.name: {keyword1: 0.99, keyword5: 0.99, para1: 0.86, para5: 0.98, koEn5: 0.99, enKo5: 0.97, korean5: 0.99, rewordings: 0.95},
	// Session 11's held-out batch (heldout14/), written in session 10 by a
	// writer who read no project file; look 1 on 7f5d650 (session 10's
	// final code): keyword 1.000 / 1.000 (90), paraphrase 0.633 / 0.889
	// (90), ko→en 0.700 / 0.933 (30), en→ko 0.882 / 1.000 (51), Korean
	// 0.783 / 0.967 (60), rewordings 39/40, look-alikes merged 4/40; the
	// semantic stand-in 40/40, 0/40. Look 2 on 0415b19 (session 11's
	// final code): the same but look-alikes merged 1/40. Spent: tuning data
	// (retrieval14/) since session 12, floors at look 2.
	// look-alikes kept apart: 40/40 since strerror texts and HTTP reason
	// phrases are error details (39/40 before).
	tuning14Part.name: {keyword1: 0.99, keyword5: 0.99, para1: 0.63, para5: 0.88, koEn5: 0.93, enKo5: 0.99, korean5: 0.96, rewordings: 0.975},
	// Session 12's held-out batch (heldout15/, retrieval15/ now), written in session 11 by a
	// writer who read no project file; look 1 on 0415b19 (session 11's
	// final code): keyword 1.000 / 1.000 (90), paraphrase 0.733 / 0.889
	// (90), ko→en 0.800 / 1.000 (30), en→ko 1.000 / 1.000 (53), Korean
	// 0.879 / 1.000 (58), rewordings 37/40, look-alikes merged 1/40; the
	// semantic stand-in 40/40, 0/40. Floors sit there. Look 2 on da1c50a
	// (session 15's final code): the same but look-alikes merged 0/40.
	// Spent: tuning data (retrieval15/) since session 16, floors at look 2.
	tuning15Part.name: {keyword1: 0.99, keyword5: 0.99, para1: 0.73, para5: 0.88, koEn5: 0.99, enKo5: 0.99, korean5: 0.99, rewordings: 0.92},
	// Session 15's held-out batch (heldout16/, retrieval16/ now), written at its start by a
	// writer who read no project file; look 1 on 3f95204 (session 15's
	// starting code): keyword 1.000 / 1.000 (90), paraphrase 0.733 / 0.911
	// (90), ko→en 0.567 / 0.767 (30), en→ko 0.704 / 0.963 (27), Korean
	// 0.786 / 0.905 (84), rewordings 36/40, look-alikes merged 0/40.
	// Floors sit there. Look 2 on da1c50a (after the session's merge rules):
	// the same but rewordings 38/40. Spent: tuning data (retrieval16/)
	// since session 16, floors at look 2.
	// ko→en recall@5 24/30 and Korean 77/84 since session 22's glossary nouns (23/30, 76/84 before).
	tuning16Part.name: {keyword1: 0.99, keyword5: 0.99, para1: 0.73, para5: 0.91, koEn5: 0.79, enKo5: 0.96, korean5: 0.91, rewordings: 0.95},
	// Session 16's held-out batch (heldout17/), written in session 15 by a
	// writer who read no project file and frozen at once; look 1 on da1c50a
	// (session 15's final code): keyword 0.989 / 1.000 (90), paraphrase
	// 0.667 / 0.933 (90), ko→en 0.633 / 0.767 (30), en→ko 0.815 / 0.963
	// (27), Korean 0.774 / 0.905 (84), rewordings 35/40, look-alikes
	// merged 2/40. Floors sit there. Look 2 on 92fe42d (session 17's
	// final code): every figure the same. Spent: tuning data
	// (retrieval17/) since session 18, floors at look 2.
	// look-alikes kept apart: 40/40 since a long flag's value after a space
	// (--status applied) is a value and deno's words after it a subcommand
	// (38/40 before: h17p-40, h17p-69).
	// ko→en recall@5 0.800 since session 23's native words in the glossary (0.767 before).
	tuning17Part.name: {keyword1: 0.98, keyword5: 0.99, para1: 0.66, para5: 0.93, koEn5: 0.79, enKo5: 0.96, korean5: 0.90, rewordings: 0.875},
	// Session 17's held-out batch (heldout18/), written at its start by a
	// writer who read no project file and frozen when done; look 1 on
	// 92fe42d (session 17's final code): keyword 1.000 / 1.000 (90),
	// paraphrase 0.611 / 0.878 (90), ko→en 0.633 / 0.767 (30), en→ko
	// 0.741 / 0.963 (27), Korean 0.750 / 0.869, rewordings 37/40,
	// look-alikes merged 1/40. Floors sit there. Look 2 on f76e60f
	// (session 18's final code): every figure the same. Spent: tuning data
	// (retrieval18/) since the end of session 18, floors at look 2 (its
	// merged look-alike allowed until it is kept apart).
	// Its one merged look-alike (h18p-75) is kept apart since 3a35700.
	// ko→en recall@5 24/30 and Korean 74/84 since session 22's 불어나다 (23/30, 73/84 before).
	// ko→en recall@5 0.833 and Korean 0.905 since session 23's native words in the glossary (0.800, 0.881 before).
	tuning18Part.name: {keyword1: 0.99, keyword5: 0.99, para1: 0.61, para5: 0.87, koEn5: 0.83, enKo5: 0.96, korean5: 0.90, rewordings: 0.925, mergedLookAlikes: 0},
	// Session 18's held-out batch (heldout19/), written at its start by a
	// writer who read no project file and frozen when done; look 1 on
	// f76e60f (the session's final code): keyword 0.989 / 1.000 (90),
	// paraphrase 0.978 / 1.000 (90), ko→en 0.733 / 0.900 (30), en→ko 0.926
	// / 1.000 (27), Korean 0.905 / 0.964 (84), rewordings 40/40,
	// look-alikes merged 7/40. Look 2 on 48ea1d9 (session 20's final
	// code): every figure the same. Spent: tuning data (retrieval19/) since
	// the end of session 20, floors at look 2 (its seven merged look-alikes
	// allowed until they are kept apart).
	// Look-alikes merged 2/40 since a figure each text writes and the other
	// states in no form is one figure told otherwise (figuresRival: Port
	// 2222 → 2022, surefire 3.0.0 → 2.22.2, --timeout 120 → 300,
	// gc_grace_seconds 86400 → 3600, MaxRequestWorkers 400 → 256; 7/40
	// before); 0/40 since a one-word span each side that the other text
	// writes nowhere is a setting or a feature put in place of another
	// (spanSwapped: node-linker=hoisted → shamefully-hoist=true,
	// rt-multi-thread → macros).
	// ko→en recall@5 28/30 and Korean 82/84 since session 22's glossary nouns (27/30, 81/84 before).
	tuning19Part.name: {keyword1: 0.98, keyword5: 0.99, para1: 0.97, para5: 0.99, koEn5: 0.93, enKo5: 0.99, korean5: 0.97, rewordings: 1, mergedLookAlikes: 0},
	// Session 19's held-out batch (heldout20/), written at its start by a
	// writer who read no project file and frozen when done; look 1 on
	// 48ea1d9 (session 20's final code; session 19 was cut off before its
	// look): keyword 0.989 / 1.000 (90), paraphrase 0.967 / 1.000 (90),
	// ko→en 0.533 / 0.800 (30), en→ko 1.000 / 1.000 (27), Korean 0.810 /
	// 0.929 (84), rewordings 40/40, look-alikes merged 9/40. Look 2 on
	// 24fa8c0 (session 21's final code): look-alikes merged 7/40, every
	// other figure the same. Spent: tuning data (retrieval20/) since the
	// start of session 22, floors at look 2 (its seven merged look-alikes
	// allowed until they are kept apart). compoundsSwapped and mimeRival
	// keep four apart (fetch-depth, fetch-tags; nexus-releases,
	// nexus-snapshots; net.core.somaxconn, net.ipv4.tcp_max_syn_backlog;
	// application/json, text/css), colonSetting one more (fruit:metadata
	// = stream, = netatalk): two left, kept apart since session 23's
	// literals (details_literals.go: rsync -a --delete /srv/data/ →
	// /srv/data, storage.type filesystem → memory): 0/40.
	// ko→en recall@5 28/30 and Korean 82/84 since session 22's 시도, 관리, …,
	// read off this part's misses (24/30, 78/84 before).
	tuning20Part.name: {keyword1: 0.98, keyword5: 0.99, para1: 0.96, para5: 0.99, koEn5: 0.93, enKo5: 0.99, korean5: 0.97, rewordings: 1, mergedLookAlikes: 0},
	// Session 21's held-out batch (heldout21/), written at its start by a
	// writer who read no project file and frozen when done; look 1 on
	// f69cc62 (session 20's final code): keyword 1.000 / 1.000 (60),
	// paraphrase 0.617 / 0.867 (60), ko→en 0.467 / 0.733 (30), en→ko 1.000
	// / 1.000 (18), Korean 0.712 / 0.879 (66), rewordings 16/17,
	// look-alikes merged 3/17. Look 2 on f1bf993 (session 22's final
	// code): ko→en r@5 0.767, Korean r@5 0.894, every other figure the
	// same. Spent: tuning data (retrieval21/) since the end of session 22,
	// floors at look 2 (its three merged look-alikes allowed until they
	// are kept apart); two since session 23's tailsSwapped (allkeys-lru →
	// volatile-lru).
	// ko→en recall@5 0.833 and Korean 0.924 since session 23's native words in the glossary (0.767, 0.894 before).
	tuning21Part.name: {keyword1: 0.99, keyword5: 0.99, para1: 0.61, para5: 0.86, koEn5: 0.83, enKo5: 0.99, korean5: 0.92, rewordings: 0.94, mergedLookAlikes: 2},
	// Session 22's held-out batch (heldout22/), written at its start by a
	// writer who read no project file and frozen when done; look 1 on
	// 24fa8c0 (session 21's final code): keyword 1.000 / 1.000 (60),
	// paraphrase 0.900 / 0.967 (60), ko→en 0.600 / 0.800 (20), en→ko 1.000
	// / 1.000 (20), Korean 0.821 / 0.911 (56), rewordings 20/20,
	// look-alikes merged 0/20. Look 2 on f1bf993 (session 22's final
	// code): every figure the same. Spent: tuning data (retrieval22/) since
	// the end of session 22, floors at look 2.
	// ko→en recall@5 0.950 and Korean 0.964 since session 23's native words in the glossary (0.800, 0.911 before).
	tuning22Part.name: {keyword1: 0.99, keyword5: 0.99, para1: 0.89, para5: 0.96, koEn5: 0.94, enKo5: 0.99, korean5: 0.96, rewordings: 1, mergedLookAlikes: 0},
	// Session 23's paraphrase probe (probe23p/), written by a tuner from
	// general knowledge; first run on 4e08cb3: paraphrase 0.796 / 0.939
	// (49), ko→en 0.950 (20), en→ko 1.000 (11), Korean 0.968 (31); the
	// same after session 23's glossary. No keyword queries and no pairs:
	// those floors are 0.
	probe23pPart.name: {para1: 0.79, para5: 0.93, koEn5: 0.94, enKo5: 0.99, korean5: 0.96},
	// Written during session 22 (heldout23/) by an outside writer who
	// read no project file; look 1 on f1bf993 (session 22's final code):
	// keyword 0.983 / 1.000 (60), paraphrase 0.650 / 0.883 (60), ko→en
	// 0.750 / 0.950 (20), en→ko 0.914 / 1.000 (35), Korean 0.805 / 0.976
	// (41), rewordings 19/20, look-alikes merged 5/20. Look 2 on 82a1076
	// (session 23's final code): every figure the same. Spent: tuning data
	// (retrieval23/) since the end of session 23, floors at look 2.
	tuning23Part.name: {keyword1: 0.98, keyword5: 0.99, para1: 0.64, para5: 0.88, koEn5: 0.94, enKo5: 0.99, korean5: 0.97, rewordings: 0.95, mergedLookAlikes: 5},
	// Written at the start of session 23 (heldout24/); look 1 on 1575c99
	// (session 22's final code): keyword 1.000 / 1.000 (60), paraphrase
	// 0.450 / 0.817 (60), ko→en 0.550 / 0.850 (20), en→ko 0.800 / 0.900
	// (20), Korean 0.732 / 0.911 (56), rewordings 18/20, look-alikes merged
	// 4/20. Look 2 on 82a1076 (session 23's final code): look-alikes
	// merged 3/20, every other figure the same. Spent: tuning data
	// (retrieval24/) since the end of session 23, floors at look 2.
	tuning24Part.name: {keyword1: 0.99, keyword5: 0.99, para1: 0.449, para5: 0.81, koEn5: 0.849, enKo5: 0.899, korean5: 0.91, rewordings: 0.899, mergedLookAlikes: 3},
}

// partFloors are one part's floors: recall@1 and recall@5 of keyword and
// paraphrase queries, recall@5 across languages and of Korean queries, and
// the share of rewordings merged. tunerRewordings is zero for a part
// without pairs-tuner.jsonl.
type partFloors struct {
	keyword1, keyword5, para1, para5, koEn5, enKo5, korean5, rewordings float64
	tunerRewordings                                                     float64
	// mergedLookAlikes is how many look-alikes a held-out part merged at
	// its look 1 (the goal is none; a tuning part allows none).
	mergedLookAlikes int
}

func (p partFloors) check(f retrievalFigures) []floor {
	out := []floor{
		{"keyword recall@1", f.recall1(gKeyword), p.keyword1},
		{"keyword recall@5", f.recall5(gKeyword), p.keyword5},
		{"paraphrase recall@1", f.recall1(gParaphrase), p.para1},
		{"paraphrase recall@5", f.recall5(gParaphrase), p.para5},
		{"ko→en recall@5", f.recall5(gKoEn), p.koEn5},
		{"en→ko recall@5", f.recall5(gEnKo), p.enKo5},
		{"korean recall@5", f.recall5(gKorean), p.korean5},
		{"rewordings merged", f.merges.rewordings(), p.rewordings},
		{"look-alikes kept apart", ratio(f.merges.tn, f.merges.tn+f.merges.fp), ratio(f.merges.tn+f.merges.fp-p.mergedLookAlikes, f.merges.tn+f.merges.fp)},
	}
	if p.tunerRewordings > 0 {
		out = append(out,
			floor{"tuner-written rewordings merged", f.tunerMerges.rewordings(), p.tunerRewordings},
			floor{"tuner-written look-alikes kept apart", ratio(f.tunerMerges.tn, f.tunerMerges.tn+f.tunerMerges.fp), 1})
	}
	return out
}
