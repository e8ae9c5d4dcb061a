package s3_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"pumasi"
	s3store "pumasi/adapters/s3"
)

// loseAnswer applies the first PUT whose path ends with suffix and then
// answers 500 InternalError instead of S3's 200, as S3 may when it applied
// a write; the SDK retries the PUT, and a conditional one then meets 412
// against its own write.
type loseAnswer struct {
	next   s3.HTTPClient
	suffix string
	lost   atomic.Int32
	// skip is how many matching PUTs pass untouched first.
	skip atomic.Int32
}

func (l *loseAnswer) Do(r *http.Request) (*http.Response, error) {
	resp, err := l.next.Do(r)
	if err != nil || r.Method != http.MethodPut || !strings.HasSuffix(r.URL.Path, l.suffix) ||
		resp.StatusCode != http.StatusOK || l.skip.Add(-1) >= 0 || !l.lost.CompareAndSwap(0, 1) {
		return resp, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	body := `<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>`
	return &http.Response{
		Status: "500 Internal Server Error", StatusCode: 500, Proto: resp.Proto, ProtoMajor: resp.ProtoMajor, ProtoMinor: resp.ProtoMinor,
		Header: http.Header{"Content-Type": {"application/xml"}}, Body: io.NopCloser(strings.NewReader(body)),
		ContentLength: int64(len(body)), Request: r,
	}, nil
}

// TestContributeSurvivesLostIndexAnswer: the index PUT of a new entry lands
// but its answer is lost; the SDK's retry gets 412 against our own write.
// Contribute must recognise its entry in the index and report it accepted,
// not merge into its own entry and then delete that entry object as an
// unindexed leftover (which left the index pointing at nothing).
func TestContributeSurvivesLostIndexAnswer(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	st := e.open(t, s3store.Options{})
	l := &loseAnswer{suffix: "/index.json"}
	s3store.WrapHTTPClient(st, func(c s3.HTTPClient) s3.HTTPClient { l.next = c; return l })

	res, err := st.Contribute(ctx, hashedIn(t, "agent-one", "Lost answer", "`go vet` catches printf verb mismatches before they ship."))
	if err != nil {
		t.Fatalf("Contribute: %v", err)
	}
	if l.lost.Load() != 1 {
		t.Fatalf("the fault was not injected; the test proves nothing")
	}
	if res.Verdict != pumasi.VerdictAccepted || res.Entry.ContributionCount != 1 {
		t.Fatalf("Contribute = %s with contribution_count %d, want accepted with 1", res.Verdict, res.Entry.ContributionCount)
	}
	got, err := st.GetEntry(ctx, res.Entry.ID)
	if err != nil {
		t.Fatalf("GetEntry(%s) after a lost index answer: %v", res.Entry.ID, err)
	}
	if got.ContributionCount != 1 {
		t.Fatalf("entry contribution_count = %d, want 1", got.ContributionCount)
	}
}

// TestSealSurvivesLostIndexAnswer: the same lost answer on the index PUT
// that seals a full tail into a segment. The segment must not be deleted as
// the leftover of a lost race, since the index that landed references it:
// every later read of the hive would fail on the missing segment.
func TestSealSurvivesLostIndexAnswer(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	st := e.open(t, s3store.Options{})
	l := &loseAnswer{suffix: "/index.json"}
	const tail = 128 // knowTailMax: the 129th insert seals
	l.skip.Store(tail)
	s3store.WrapHTTPClient(st, func(c s3.HTTPClient) s3.HTTPClient { l.next = c; return l })
	for i := 0; i <= tail; i++ {
		in := hashedIn(t, "agent-one", fmt.Sprintf("Finding %d", i), fmt.Sprintf("Distinct finding number %d about flag %d and option %d.", i, i*7, i*13))
		in.Threshold = 2 // never merge: every contribution is a new entry
		if _, err := st.Contribute(ctx, in); err != nil {
			t.Fatalf("Contribute %d: %v", i, err)
		}
	}
	if l.lost.Load() != 1 {
		t.Fatalf("the fault was not injected; the test proves nothing")
	}
	cold := e.open(t, s3store.Options{})
	in := hashedIn(t, "agent-two", "After the seal", "A contribution read against the sealed index.")
	in.Threshold = 2
	if _, err := cold.Contribute(ctx, in); err != nil {
		t.Fatalf("Contribute after the sealed index: %v", err)
	}
	if segs := e.keys(t, "knowledge/hives/academy/segments/"); len(segs) != 1 {
		t.Fatalf("segments = %v, want exactly the one sealed", segs)
	}
}
