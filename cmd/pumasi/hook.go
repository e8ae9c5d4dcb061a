package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"pumasi"
	"pumasi/functions"
	"pumasi/knowledge"
	"pumasi/prompt"
)

func init() {
	register(command{
		name:    "know hook",
		summary: "pre-task hook (Claude Code, Codex and Cursor prompt and session hooks): print the collective knowledge matching the prompt: know hook [--server URL] [--limit 3] [--budget 4096] [--timeout 2s]",
		run:     runKnowHook,
	})
}

// DefaultHookTimeout bounds the whole hook: it runs before every prompt.
const DefaultHookTimeout = 2 * time.Second

// hookHit is a query hit as the hook reads it: pumasi's fields and The
// Hive's summary.
type hookHit struct {
	knowledge.Hit
	Summary string `json:"summary"`
}

// runKnowHook is a pre-task hook: it reads the host's event from stdin,
// queries the knowledge server with the prompt and prints the top hits as a
// <collective-knowledge> block, in the JSON its host (Claude Code, Codex,
// Cursor) documents for context it adds to the model's. It never blocks or fails the prompt: whatever goes wrong (no
// server, a timeout, a bad event), it prints nothing on stdout, one line on
// stderr, and exits 0. Only a usage error (bad flags) exits 2.
func runKnowHook(ctx context.Context, env *cliEnv, args []string) error {
	fs := newFlags("know hook")
	server := knowServerFlag(env, fs)
	limit := fs.Int("limit", 3, "most entries to show (1-50)")
	hive := fs.String("hive", "", "search only this hive (default: every hive)")
	budget := fs.Int("budget", prompt.DefaultKnowledgeBudget, "largest block in bytes; entries past it are summarised, then listed as omitted")
	timeout := fs.Duration("timeout", DefaultHookTimeout, "give up on the server after this long")
	query := fs.String("query", "", "search for this instead of the prompt (for SessionStart: default the project folder's name)")
	minSim := fs.Float64("min-similarity", 0, "drop entries less similar to the prompt than this (0-1)")
	minScoreArg := fs.String("min-score", functions.MinScoreFloor, "inject no entry scoring below this (0-1); floor: the server's floor for its embedder (0.1 for the offline one, measured on testdata/knowledge/relevance, and for every entry after the first 0.205 without the decision's weight; 0.315 for others, not measured; a server older than floor refuses it and is asked for 0.205; a client older than the decision checks 0.205 itself and may drop entries: upgrade it with the server)")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	minScore, ok := parseMinScoreArg(*minScoreArg)
	if len(pos) > 0 || *limit < 1 || *limit > knowledge.MaxQueryLimit || *budget < 256 || *timeout <= 0 || !ok {
		return usagef("want no arguments, --limit 1-50, --budget of at least 256, --min-score 0-1 or floor and a positive --timeout")
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	note := func(format string, a ...any) error {
		fmt.Fprintf(env.stderr, "pumasi know hook: "+format+"; continuing without collective knowledge\n", a...)
		return nil
	}
	ev, err := readHookEvent(ctx, env.stdin)
	if err != nil {
		return note("%v", err)
	}
	q := strings.TrimSpace(*query)
	if q == "" {
		q = strings.TrimSpace(ev.Prompt)
	}
	if dir := ev.projectDir(); q == "" && dir != "" {
		// SessionStart has no prompt: the project's name is the best guess
		// at what the session is about.
		q = filepath.Base(dir)
	}
	if q == "" || q == "." || q == string(filepath.Separator) {
		return nil
	}
	q = truncateUTF8(q, functions.MaxQueryBytes)
	kc := newKnowClient(*server, "")
	kc.http.Timeout = *timeout
	var hits []hookHit
	_, raw, err := kc.queryAbove(ctx, q, *limit, *hive, &minScore)
	if err == nil {
		err = decodeData(raw, &hits)
	}
	if err != nil {
		var ae *apiError
		if errors.As(err, &ae) {
			return note("the server answered %d %s", ae.Status, ae.Code)
		}
		if ctx.Err() != nil {
			return note("no answer from %s within %s", kc.server, *timeout)
		}
		return note("cannot reach %s", kc.server)
	}
	// In the shape the event's host documents (hookout.go).
	return writeHookContext(env.stdout, ev, prompt.ComposeKnowledgeContext(knowledgeHints(hits, minScore.least, *minSim), *budget))
}

// minScore is the min_score a client asks for: param is what it sends ("":
// none; functions.MinScoreFloor: the server's floor for its embedder, which
// only the server knows), least what it checks itself (the server leaves
// lower hits out too, but an older one may not): the number, or for the
// floor the lower of the two kinds' floors (olderServerFloor once a server
// older than floor refused it, queryAbove).
type minScore struct {
	param string
	least float64
}

// parseMinScoreArg reads --min-score or min_score: a number from 0 to 1 or
// functions.MinScoreFloor.
func parseMinScoreArg(s string) (minScore, bool) {
	if s == functions.MinScoreFloor {
		return minScore{param: s, least: min(knowledge.LexicalInjectFloor, knowledge.SemanticInjectFloor)}, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f >= 0 && f <= 1) {
		return minScore{}, false
	}
	if f == 0 {
		return minScore{}, true
	}
	return minScore{param: strconv.FormatFloat(f, 'f', -1, 64), least: f}, true
}

// olderServerFloor is the offline embedder's floor on servers older than
// min_score=floor: their scores carry no injection decision
// (knowledge.DecisionWeight), so today's LexicalInjectFloor would let more
// through there.
const olderServerFloor = 0.205

// queryAbove sends GET /knowledge/query for q with ms.param as min_score.
// A server older than min_score=floor refuses floor with 400
// invalid_request, so a new hook or MCP would inject nothing; then it asks
// once more with olderServerFloor as a number, and sets ms.least to that
// floor, so that knowledgeHints checks it too, as it does for any number
// (such a server's scores carry no decision weight: the lexical floor
// would let its hits from 0.1 to 0.205 through).
func (k *knowClient) queryAbove(ctx context.Context, q string, limit int, hive string, ms *minScore) (int, []byte, error) {
	status, raw, err := k.sendRaw(ctx, "GET", queryPath(q, limit, hive, ms.param), nil)
	var ae *apiError
	if ms.param == functions.MinScoreFloor && errors.As(err, &ae) && ae.Status == http.StatusBadRequest && ae.Code == pumasi.EInvalidRequest {
		status, raw, err = k.sendRaw(ctx, "GET", queryPath(q, limit, hive, strconv.FormatFloat(olderServerFloor, 'f', -1, 64)), nil)
		ms.least = max(ms.least, olderServerFloor)
	}
	return status, raw, err
}

// knowledgeHints are the hits worth injecting into a prompt, with their
// provenance: those scoring at least minScore (the server leaves the others
// out too, but an older one may not) and at least minSim similar.
func knowledgeHints(hits []hookHit, minScore, minSim float64) []prompt.KnowledgeHint {
	hints := make([]prompt.KnowledgeHint, 0, len(hits))
	for _, h := range hits {
		if h.Score < minScore || h.Similarity < minSim {
			continue
		}
		hints = append(hints, prompt.KnowledgeHint{ID: h.ID, Hive: h.Hive, Title: h.Title, Summary: h.Summary, Content: h.Content,
			Score: h.Score, Contributors: h.ContributionCount, LastUsed: h.LastUsedAt})
	}
	return hints
}

// readHookEvent reads the event JSON from r, bounded in size and by ctx (a
// host that never closes stdin must not hold the prompt).
func readHookEvent(ctx context.Context, r io.Reader) (hookEvent, error) {
	type result struct {
		b   []byte
		err error
	}
	c := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, maxHookEvent+1))
		c <- result{b, err}
	}()
	var res result
	select {
	case res = <-c:
	case <-ctx.Done():
		return hookEvent{}, errors.New("no hook event on stdin in time")
	}
	var ev hookEvent
	switch {
	case res.err != nil:
		return ev, fmt.Errorf("read hook event: %v", res.err)
	case len(res.b) > maxHookEvent:
		return ev, fmt.Errorf("hook event is larger than %d bytes", maxHookEvent)
	case len(strings.TrimSpace(string(res.b))) == 0:
		return ev, nil
	}
	if err := json.Unmarshal(res.b, &ev); err != nil {
		return ev, errors.New("stdin is not a hook event (a JSON object)")
	}
	return ev, nil
}

// truncateUTF8 cuts s to at most n bytes without splitting a character.
func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
