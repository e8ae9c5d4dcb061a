package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"pumasi/knowledge"
)

// init registers `know cite` and `know endorse`. Citing and endorsing are
// how an agent says it used an entry: staleness ages entries nobody cites,
// endorses or contributes to, however often queries return them.
func init() {
	register(command{name: "know cite", summary: "count a use of an entry: know cite ID [--agent A]", run: runKnowCite})
	register(command{name: "know endorse", summary: "endorse an entry that proved right, once per handle: know endorse ID [--agent A]", run: runKnowEndorse})
}

// bump cites or endorses entry id (op "cite" or "endorse") and returns the
// entry with its counters after the bump.
func (k *knowClient) bump(ctx context.Context, op, id string) (knowledge.Entry, error) {
	var e knowledge.Entry
	_, err := k.send(ctx, "POST", bumpPath(op, id), nil, &e)
	return e, err
}

// bumpPath is POST /knowledge/{id}/cite's or /endorse's path.
func bumpPath(op, id string) string {
	return "/knowledge/" + url.PathEscape(id) + "/" + op
}

// entryIDPattern is what an entry id may look like: the engine's UUIDs and
// seeded ids such as bench-00000001. Checking it before the request keeps a
// pasted title or a path out of the URL.
var entryIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`)

// checkEntryID returns id without surrounding spaces, or invalid_request.
func checkEntryID(id string) (string, error) {
	id = strings.TrimSpace(id)
	if !entryIDPattern.MatchString(id) {
		return "", fmt.Errorf("invalid_request: %q is not an entry id (1-128 characters of A-Z a-z 0-9 . _ : -, as query_knowledge gives it)", id)
	}
	return id, nil
}

func runKnowCite(ctx context.Context, env *cliEnv, args []string) error {
	return runKnowBump(ctx, env, "cite", args)
}

func runKnowEndorse(ctx context.Context, env *cliEnv, args []string) error {
	return runKnowBump(ctx, env, "endorse", args)
}

// runKnowBump serves `know cite ID` and `know endorse ID`: one request as
// the agent, one line with the entry's counters after it.
func runKnowBump(ctx context.Context, env *cliEnv, op string, args []string) error {
	name := "know " + op
	fs := newFlags(name)
	server := knowServerFlag(env, fs)
	agent := fs.String("agent", env.getenv("PUMASI_AGENT"), "your handle, sent as X-Hive-Agent (env PUMASI_AGENT)")
	asJSON := fs.Bool("json", false, "print the entry as JSON")
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("give one entry id (from know query)")
	}
	id, err := checkEntryID(pos[0])
	if err != nil {
		return asUsage(err)
	}
	if err := needHandle(*agent); err != nil {
		return err
	}
	e, err := newKnowClient(*server, *agent).bump(ctx, op, id)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if *asJSON {
		return printJSON(env.stdout, e)
	}
	verb := map[string]string{"cite": "cited", "endorse": "endorsed"}[op]
	fmt.Fprintf(env.stdout, "%s %s %q: %s · %s\n", verb, e.ID, e.Title, plural(e.CitationCount, "citation"), plural(e.EndorsementCount, "endorsement"))
	return nil
}

type entryIDInput struct {
	ID string `json:"id" jsonschema:"the entry's id, as query_knowledge (or a knowledge hint) gives it"`
}

// citeAnnotations and endorseAnnotations: every cite counts again; an
// endorsement counts once per handle, so repeating it changes nothing.
var (
	citeAnnotations    = &mcp.ToolAnnotations{Title: "Cite knowledge", DestructiveHint: ptr(false), IdempotentHint: false, OpenWorldHint: ptr(true)}
	endorseAnnotations = &mcp.ToolAnnotations{Title: "Endorse knowledge", DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(true)}
)

// addBumpTools registers cite_knowledge and endorse_knowledge, which post
// to the cite and endorse routes as handle and return the answer as it is,
// `{"success", "data": entry}`.
func addBumpTools(s *mcp.Server, kc *knowClient, handle string, handleOK bool) {
	bump := func(op string) mcp.ToolHandlerFor[entryIDInput, any] {
		return func(ctx context.Context, _ *mcp.CallToolRequest, in entryIDInput) (*mcp.CallToolResult, any, error) {
			id, err := checkEntryID(in.ID)
			if err != nil {
				return nil, nil, err
			}
			if !handleOK {
				return nil, nil, fmt.Errorf("agent_required: the handle %q is not 3-64 characters of A-Z a-z 0-9 . _ -; start pumasi mcp with --handle", handle)
			}
			status, raw, err := kc.sendRaw(ctx, "POST", bumpPath(op, id), nil)
			if ae := (*apiError)(nil); errors.As(err, &ae) && ae.Status == http.StatusNotFound {
				return nil, nil, fmt.Errorf("not_found: no knowledge entry has id %q; use an id query_knowledge returned", id)
			}
			return knowResult(status, raw, err)
		}
	}
	addTool(s, &mcp.Tool{
		Name: "cite_knowledge",
		Description: "Record that you used a knowledge entry in your work, by its id from query_knowledge. " +
			"A citation counts once per contributor, entry and UTC day (you are " + handle + "): citing the same entry again the same day " +
			"answers \"counted\": false and changes nothing; a counted citation keeps the entry fresh, so entries agents rely on keep ranking. " +
			"Answers {\"success\", \"data\": entry with \"counted\"} as POST /knowledge/{id}/cite (citation_count, endorsement_count, last_used_at).",
		Annotations: citeAnnotations,
	}, nil, bump("cite"))
	addTool(s, &mcp.Tool{
		Name: "endorse_knowledge",
		Description: "Endorse a knowledge entry that proved correct when you applied it, by its id from query_knowledge. " +
			"Counts once per agent (you are " + handle + "): endorsing again changes nothing. " +
			"Answers {\"success\", \"data\": entry} as POST /knowledge/{id}/endorse.",
		Annotations: endorseAnnotations,
	}, nil, bump("endorse"))
}
