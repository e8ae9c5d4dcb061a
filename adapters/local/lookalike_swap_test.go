package local

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"testing"
	"time"

	"pumasi/adapters/embed"
	"pumasi/knowledge"
)

// TestRewordingSwapProbe makes look-alikes of the tuning parts' rewordings
// the way outside writers make theirs (a finding reworded, one detail
// changed on the way): in each rewording the offline embedder merges, a
// number both texts write (two to six digits) is told otherwise in the
// second text, everywhere it writes it (n → 3n+7), and, apart, a protocol's
// name is swapped (TCP → UDP, HTTPS → HTTP). It counts the swapped pairs
// that still merge, under ceilings at the figures reached: numbers 95/240
// on 3f019ce, before figuresRival; 4/240 since (a second text that still
// states the number another way: 32 days beside the swapped 768h,
// 1800000 ms for 30 minutes, 127.0.0.53:53 for port 53); protocol names
// 5/8 before protocolsRival, 3/8 since (second texts that still name the
// protocol: an https:// address beside the swapped HTTP). Held-out parts
// are never read here.
func TestRewordingSwapProbe(t *testing.T) {
	if raceEnabled {
		t.Skip("measured without the race detector")
	}
	emb := embed.NewHashed(0)
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	k := knowledge.New(NewKnowledgeDriver(s), knowledge.Options{Now: func() time.Time { return at }})
	n := 0
	merge := func(a, b [2]string) bool {
		n++
		hive := fmt.Sprintf("swap-%05d", n)
		in := func(agent string, tc [2]string) knowledge.ContributeInput {
			return knowledge.ContributeInput{Hive: hive, Agent: agent, Title: tc[0], Content: tc[1],
				NormHash: knowledge.Hash(tc[0], tc[1]), Model: emb.Model(),
				Vector: emb.Vector(knowledge.EmbeddingText(tc[0], tc[1])), Specificity: 0.8, Threshold: emb.MergeThreshold(), At: at}
		}
		if _, err := k.Contribute(ctx, in("agent-a", a)); err != nil {
			t.Fatal(err)
		}
		res, err := k.Contribute(ctx, in("agent-b", b))
		if err != nil {
			t.Fatal(err)
		}
		return res.Verdict == knowledge.VerdictMerged
	}
	numberIn := regexp.MustCompile(`(?:^|[\s(=:\x60'"])(\d{2,6})(?:$|[\s),;.\x60'"a-z%])`)
	run := regexp.MustCompile(`\d+(?:[.,:]\d+)*`)
	protocols := []struct{ from, to string }{{"TCP", "UDP"}, {"UDP", "TCP"}, {"IPv4", "IPv6"}, {"IPv6", "IPv4"}, {"HTTPS", "HTTP"}, {"gRPC", "REST"}}
	var numbers, numbersMerged, names, namesMerged int
	for _, part := range allParts {
		if part.heldOut {
			continue
		}
		for _, p := range readJSONL[qPair](t, part, "pairs.jsonl") {
			a, b := [2]string{p.A.Title, p.A.Content}, [2]string{p.B.Title, p.B.Content}
			if p.Label != "reworded" || !merge(a, b) {
				continue
			}
			for _, m := range numberIn.FindAllStringSubmatch(b[0]+"\n"+b[1], -1) {
				if !containsRun(run, a[0]+"\n"+a[1], m[1]) {
					continue
				}
				v, _ := strconv.Atoi(m[1])
				to := strconv.Itoa(3*v + 7)
				swap := func(s string) string {
					return run.ReplaceAllStringFunc(s, func(x string) string {
						if x == m[1] {
							return to
						}
						return x
					})
				}
				b2 := [2]string{swap(b[0]), swap(b[1])}
				if b2 == b {
					continue
				}
				numbers++
				if merge(a, b2) {
					numbersMerged++
					t.Logf("%s %s: %s → %s still merges", part.name, p.ID, m[1], to)
				}
				break
			}
			for _, pr := range protocols {
				re := regexp.MustCompile(`\b` + pr.from + `\b`)
				if !re.MatchString(b[0]+"\n"+b[1]) || !re.MatchString(a[0]+"\n"+a[1]) {
					continue
				}
				names++
				if merge(a, [2]string{re.ReplaceAllString(b[0], pr.to), re.ReplaceAllString(b[1], pr.to)}) {
					namesMerged++
					t.Logf("%s %s: %s → %s still merges", part.name, p.ID, pr.from, pr.to)
				}
				break
			}
		}
	}
	t.Logf("a number told otherwise in a merged rewording: %d/%d still merge; a protocol's name: %d/%d", numbersMerged, numbers, namesMerged, names)
	if numbers < 200 || numbersMerged > 4 {
		t.Errorf("numbers swapped: %d/%d merged, want at most 4 of at least 200", numbersMerged, numbers)
	}
	// 3 of 8 on session 21's parts; tuning-20 (moved in at session 22's
	// start) brings three more swaps and one more merge (h20p-016, HTTPS
	// → HTTP); tuning-21 (moved in at session 22's end) one more swap and
	// one more merge (h21p-009, IPv4 → IPv6). The numbers: 4 of 283.
	if namesMerged > 5 {
		t.Errorf("protocol names swapped: %d/%d merged, want at most 5", namesMerged, names)
	}
}

// containsRun reports whether text writes the digit run x (as a whole run).
func containsRun(run *regexp.Regexp, text, x string) bool {
	for _, y := range run.FindAllString(text, -1) {
		if y == x {
			return true
		}
	}
	return false
}
