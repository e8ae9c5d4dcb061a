package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/pflag"

	"pumasi"
	"pumasi/prompt"
)

func init() {
	register(command{
		name:    "mcp",
		summary: "serve an agent's shared files and collective knowledge over MCP (stdio): mcp --agent A [--home DIR] [--server URL] [--token T --room R]",
		run:     runMCP,
	})
}

// mcpConfig is what every MCP toolset may use: the agent the server speaks
// for, its home and shared directory, and the CLI environment (for env vars
// such as PUMASI_SERVER).
type mcpConfig struct {
	env       *cliEnv
	home      string
	agent     string
	sharedDir string
	// watch is how often the shared folder is polled for changes (0: never).
	watch time.Duration
	// ctx lives as long as the server runs; watchers stop with it.
	ctx context.Context
}

// mcpToolset adds a group of tools to the MCP server. flags, when set, adds
// the toolset's own flags before parsing; add registers the tools once the
// flags are parsed.
type mcpToolset struct {
	name  string
	flags func(fs *pflag.FlagSet)
	add   func(s *mcp.Server, cfg *mcpConfig) error
}

// mcpToolsets are the tool groups `pumasi mcp` serves. Other files add
// theirs from init(), e.g. the knowledge tools:
//
//	func init() { mcpToolsets = append(mcpToolsets, mcpToolset{name: "knowledge", add: addKnowledgeTools}) }
var mcpToolsets = []mcpToolset{{name: "shared files", add: addSharedFileTools}}

// mcpInstructions tells the agent what the server is for; it names every
// tool (a test checks it).
const mcpInstructions = `pumasi shares a room's files with every agent placed in it, and a collective knowledge base ` +
	`that every agent reads and writes. Your copies of the files live in memory/shared/; each is also a resource ` +
	`(pumasi://shared/<name>) you can read or subscribe to, and the shared_context prompt injects them all. ` +
	`Tools: list_shared_files lists the files and read_shared_file reads one; resolve_references turns $name ` +
	`references in a message into file paths; shared_context returns the whole <shared-context> block. ` +
	`When the server holds a token that may write your room, write_shared_file changes a shared file for the whole ` +
	`room: pass the sha256 you read as base_sha256, and on a conflict redo your edit on the current content it returns. ` +
	`Before a task, call query_knowledge with what you are about to do; call cite_knowledge with the id of each ` +
	`entry you use, and endorse_knowledge when one proved right (unused entries fade from the ranking); flag_knowledge ` +
	`one that is wrong, outdated, harmful, a duplicate or holds personal data (pii). After the task, ` +
	`call contribute_knowledge with one specific, actionable finding (tool, version, error message, fix): ` +
	`personal data, secrets, stories and platitudes are rejected, and near-duplicates merge.`

// runMCP serves the MCP tools over stdin/stdout until the client hangs up or
// a signal cancels ctx.
func runMCP(ctx context.Context, env *cliEnv, args []string) error {
	fs := newFlags("mcp")
	agent := fs.String("agent", "", "agent id (required)")
	home := fs.String("home", "", "folder holding agents/<agent>/memory (env PUMASI_HOME, default ~/.pumasi)")
	watch := fs.Duration("watch", time.Second, "how often to look for changed shared files, to notify resource subscribers (0: never)")
	for _, ts := range mcpToolsets {
		if ts.flags != nil {
			ts.flags(fs)
		}
	}
	pos, err := parseFlags(env, fs, args)
	if err != nil {
		return err
	}
	if err := noArgs(pos); err != nil {
		return err
	}
	if err := pumasi.CheckID("agent", *agent); err != nil {
		return usagef("--agent: %s", pumasi.ErrorMessage(err))
	}
	h, err := homeDir(env, *home)
	if err != nil {
		return err
	}
	if *watch < 0 {
		return usagef("--watch must be 0 or more")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cfg := &mcpConfig{env: env, home: h, agent: *agent, sharedDir: agentSharedDir(h, *agent), watch: *watch, ctx: ctx}
	server := newMCPServer()
	for _, ts := range mcpToolsets {
		if err := ts.add(server, cfg); err != nil {
			return fmt.Errorf("mcp: add %s tools: %w", ts.name, err)
		}
	}
	t := &mcp.IOTransport{Reader: io.NopCloser(env.stdin), Writer: nopWriteCloser{env.stdout}}
	err = server.Run(ctx, t)
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

func newMCPServer() *mcp.Server {
	s := newBareMCPServer()
	s.AddReceivingMiddleware(clearArgumentErrors)
	return s
}

// rationals matches the SDK's numbers in schema errors ("1000/1",
// "50.000000").
var rationals = regexp.MustCompile(`\b(\d+)(?:/1\b|\.0+\b)`)

// clearArgumentErrors rewrites the SDK's schema-validation failure of a
// tool call (`validating "arguments": ... maximum: 1000/1 is greater than
// 50.000000`) into a tool error a model can act on:
// `invalid_request: arguments: /properties/limit: maximum: 1000 is greater
// than 50`.
func clearArgumentErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		r, ok := res.(*mcp.CallToolResult)
		if err != nil || !ok || !r.IsError || len(r.Content) != 1 {
			return res, err
		}
		if tc, ok := r.Content[0].(*mcp.TextContent); ok && strings.HasPrefix(tc.Text, `validating "arguments": `) {
			msg := strings.TrimPrefix(tc.Text, `validating "arguments": `)
			msg = strings.ReplaceAll(msg, "validating root: ", "")
			msg = strings.ReplaceAll(msg, "validating ", "")
			tc.Text = "invalid_request: arguments: " + rationals.ReplaceAllString(msg, "$1")
		}
		return res, err
	}
}

func newBareMCPServer() *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "pumasi", Title: "pumasi shared memory", Version: "0.2.0"},
		&mcp.ServerOptions{
			Instructions: mcpInstructions,
			// Resources are advertised (with subscriptions) even while the
			// agent has no shared file yet: files may arrive later.
			Capabilities: &mcp.ServerCapabilities{
				Logging:   &mcp.LoggingCapabilities{},
				Resources: &mcp.ResourceCapabilities{ListChanged: true, Subscribe: true},
				Prompts:   &mcp.PromptCapabilities{ListChanged: true},
			},
			// The SDK keeps the subscriptions; ResourceUpdated notifies them.
			SubscribeHandler:   checkSubscribeURI,
			UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
		})
}

// addTool registers a typed tool with an input schema every host accepts:
// list arguments are plain "type": "array" with items (jsonschema-go writes
// a Go slice as ["null", "array"], which the Inspector CLI and hosts with
// strict function declarations refuse), and tune may bound and default
// properties. Every argument must carry a description.
func addTool[In, Out any](s *mcp.Server, t *mcp.Tool, tune func(props map[string]*jsonschema.Schema), h mcp.ToolHandlerFor[In, Out]) {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", t.Name, err))
	}
	plainTypes(in)
	if in.Properties == nil {
		in.Properties = map[string]*jsonschema.Schema{}
	}
	for name, p := range in.Properties {
		if p.Description == "" {
			panic(fmt.Sprintf("tool %s: argument %s has no description", t.Name, name))
		}
	}
	if tune != nil {
		tune(in.Properties)
	}
	t.InputSchema = in
	// Outputs too: --strict hosts check them. The handlers never return a
	// nil slice, so "array" is true.
	if reflect.TypeFor[Out]() != reflect.TypeFor[any]() {
		out, err := jsonschema.For[Out](nil)
		if err != nil {
			panic(fmt.Sprintf("tool %s: output schema: %v", t.Name, err))
		}
		plainTypes(out)
		t.OutputSchema = out
	}
	mcp.AddTool(s, t, h)
}

// plainTypes rewrites ["null", X] types as X, all the way down.
func plainTypes(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && slices.Contains(s.Types, "null") {
		s.Type = s.Types[0]
		if s.Type == "null" {
			s.Type = s.Types[1]
		}
		s.Types = nil
	}
	plainTypes(s.Items)
	for _, p := range s.Properties {
		plainTypes(p)
	}
	plainTypes(s.AdditionalProperties)
}

// intRange bounds an integer argument and gives it a default.
func intRange(p *jsonschema.Schema, lo, hi, def int) {
	l, h := float64(lo), float64(hi)
	p.Minimum, p.Maximum = &l, &h
	p.Default = json.RawMessage(fmt.Sprint(def))
}

func ptr[T any](v T) *T { return &v }

// localRead annotates a tool that only reads the agent's own folder.
var localRead = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}

// nopWriteCloser leaves stdout open when the transport closes, so the
// process exits through run like every other command.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// sharedFileInfo describes one shared file without its content.
type sharedFileInfo struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
	Path   string `json:"path" jsonschema:"where the file is, relative to the agent's directory"`
}

type listSharedFilesOutput struct {
	Files []sharedFileInfo `json:"files"`
}

type readSharedFileInput struct {
	Name string `json:"name" jsonschema:"the file's name, as list_shared_files gives it"`
}

type readSharedFileOutput struct {
	sharedFileInfo
	Content string `json:"content"`
}

type resolveReferencesInput struct {
	Text       string   `json:"text,omitempty" jsonschema:"a message that may reference files as $name or $\"name with spaces\""`
	References []string `json:"references,omitempty" jsonschema:"file names to resolve besides those in text"`
}

type sharedContextInput struct {
	Budget int `json:"budget,omitempty" jsonschema:"largest block in bytes; files past it are listed as omitted (default 65536; 0 also means the default)"`
}

// maxContextBudget bounds shared_context's budget: a room holds at most
// 64 MiB, but no prompt wants more than a few MiB.
const maxContextBudget = 4 << 20

type sharedContextOutput struct {
	Context string `json:"context"`
}

func infoOf(e sharedEntry) sharedFileInfo {
	return sharedFileInfo{Name: e.name, SHA256: e.sha256, Size: e.size, Path: prompt.SharedPathPrefix + e.name}
}

// toolError turns err into what the model may see: the client-safe message
// of a pumasi error, never internals.
func toolError(err error) error {
	if code := pumasi.ErrorCode(err); code != pumasi.EInternal {
		return fmt.Errorf("%s: %s", code, pumasi.ErrorMessage(err))
	}
	return errors.New("internal: could not read the shared files")
}

// addSharedFileTools registers the tools over the agent's memory/shared/.
func addSharedFileTools(s *mcp.Server, cfg *mcpConfig) error {
	addTool(s, &mcp.Tool{
		Name:        "list_shared_files",
		Description: "List the files shared with you through your pumasi room (name, sha256, size, path under memory/shared/).",
		Annotations: localRead,
	}, nil, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, listSharedFilesOutput, error) {
		entries, err := listSharedFiles(ctx, cfg.sharedDir)
		if err != nil {
			return nil, listSharedFilesOutput{}, toolError(err)
		}
		out := listSharedFilesOutput{Files: make([]sharedFileInfo, len(entries))}
		for i, e := range entries {
			out.Files[i] = infoOf(e)
		}
		return nil, out, nil
	})
	addTool(s, &mcp.Tool{
		Name:        "read_shared_file",
		Description: "Read one shared file by name. The text result is the file's content.",
		Annotations: localRead,
	}, nil, func(ctx context.Context, _ *mcp.CallToolRequest, in readSharedFileInput) (*mcp.CallToolResult, readSharedFileOutput, error) {
		e, err := findSharedFile(ctx, cfg.sharedDir, in.Name)
		if err != nil {
			return nil, readSharedFileOutput{}, toolError(err)
		}
		res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(e.content)}}}
		return res, readSharedFileOutput{sharedFileInfo: infoOf(e), Content: string(e.content)}, nil
	})
	addTool(s, &mcp.Tool{
		Name: "resolve_references",
		Description: "Resolve $name references in a message (and explicit names) against your shared files. " +
			"Returns the files referenced, the names that match no file (unknown), and a <referenced-files> hint.",
		Annotations: localRead,
	}, nil, func(ctx context.Context, _ *mcp.CallToolRequest, in resolveReferencesInput) (*mcp.CallToolResult, prompt.Resolution, error) {
		res, err := resolveShared(ctx, cfg.sharedDir, in.Text, in.References)
		if err != nil {
			return nil, prompt.Resolution{}, toolError(err)
		}
		return nil, res, nil
	})
	addTool(s, &mcp.Tool{
		Name:        "shared_context",
		Description: "The <shared-context> block of all your shared files, as a prompt hook would inject it.",
		Annotations: localRead,
	}, func(p map[string]*jsonschema.Schema) {
		intRange(p["budget"], 0, maxContextBudget, prompt.DefaultContextBudget)
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in sharedContextInput) (*mcp.CallToolResult, sharedContextOutput, error) {
		budget := in.Budget
		if budget < 0 || budget > maxContextBudget {
			return nil, sharedContextOutput{}, fmt.Errorf("invalid_request: budget must be 0 to %d", maxContextBudget)
		}
		if budget == 0 {
			budget = prompt.DefaultContextBudget
		}
		block, err := sharedContextBlock(ctx, cfg.sharedDir, budget)
		if err != nil {
			return nil, sharedContextOutput{}, toolError(err)
		}
		res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: block}}}
		return res, sharedContextOutput{Context: block}, nil
	})
	return nil
}
