package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"pumasi"
)

func init() {
	register(command{
		name:    "mcp",
		summary: "serve an agent's shared files over MCP (stdio): mcp --agent A [--home DIR]",
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
}

// mcpToolset adds a group of tools to the MCP server. flags, when set, adds
// the toolset's own flags before parsing; add registers the tools once the
// flags are parsed.
type mcpToolset struct {
	name  string
	flags func(fs *flag.FlagSet)
	add   func(s *mcp.Server, cfg *mcpConfig) error
}

// mcpToolsets are the tool groups `pumasi mcp` serves. Other files add
// theirs from init(), e.g. the knowledge tools:
//
//	func init() { mcpToolsets = append(mcpToolsets, mcpToolset{name: "knowledge", add: addKnowledgeTools}) }
var mcpToolsets = []mcpToolset{{name: "shared files", add: addSharedFileTools}}

// mcpInstructions tells the agent what the server is for.
const mcpInstructions = `pumasi shares a room's files with every agent placed in it. ` +
	`Your copies live in memory/shared/. Use list_shared_files and read_shared_file to see them, ` +
	`resolve_references to turn $name references in a message into file paths, ` +
	`and shared_context for the whole <shared-context> block.`

// runMCP serves the MCP tools over stdin/stdout until the client hangs up or
// a signal cancels ctx.
func runMCP(ctx context.Context, env *cliEnv, args []string) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	agent := fs.String("agent", "", "agent id (required)")
	home := fs.String("home", "", "folder holding agents/<agent>/memory (env PUMASI_HOME, default ~/.pumasi)")
	for _, ts := range mcpToolsets {
		if ts.flags != nil {
			ts.flags(fs)
		}
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := pumasi.CheckID("agent", *agent); err != nil {
		return fmt.Errorf("--agent: %s", pumasi.ErrorMessage(err))
	}
	h, err := homeDir(env, *home)
	if err != nil {
		return err
	}
	cfg := &mcpConfig{env: env, home: h, agent: *agent, sharedDir: agentSharedDir(h, *agent)}
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
	return mcp.NewServer(&mcp.Implementation{Name: "pumasi", Title: "pumasi shared memory", Version: "0.1.0"},
		&mcp.ServerOptions{Instructions: mcpInstructions})
}

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
	Budget int `json:"budget,omitempty" jsonschema:"largest block in bytes; files past it are listed as omitted (default 65536, 0 for the default)"`
}

type sharedContextOutput struct {
	Context string `json:"context"`
}

func infoOf(e sharedEntry) sharedFileInfo {
	return sharedFileInfo{Name: e.name, SHA256: e.sha256, Size: e.size, Path: pumasi.SharedPathPrefix + e.name}
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
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(s, &mcp.Tool{
		Name:        "list_shared_files",
		Description: "List the files shared with you through your pumasi room (name, sha256, size, path under memory/shared/).",
		Annotations: readOnly,
	}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, listSharedFilesOutput, error) {
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
	mcp.AddTool(s, &mcp.Tool{
		Name:        "read_shared_file",
		Description: "Read one shared file by name. The text result is the file's content.",
		Annotations: readOnly,
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in readSharedFileInput) (*mcp.CallToolResult, readSharedFileOutput, error) {
		e, err := findSharedFile(ctx, cfg.sharedDir, in.Name)
		if err != nil {
			return nil, readSharedFileOutput{}, toolError(err)
		}
		res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(e.content)}}}
		return res, readSharedFileOutput{sharedFileInfo: infoOf(e), Content: string(e.content)}, nil
	})
	mcp.AddTool(s, &mcp.Tool{
		Name: "resolve_references",
		Description: "Resolve $name references in a message (and explicit names) against your shared files. " +
			"Returns the files referenced, the names that match no file (unknown), and a <referenced-files> hint.",
		Annotations: readOnly,
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in resolveReferencesInput) (*mcp.CallToolResult, pumasi.Resolution, error) {
		res, err := resolveShared(ctx, cfg.sharedDir, in.Text, in.References)
		if err != nil {
			return nil, pumasi.Resolution{}, toolError(err)
		}
		return nil, res, nil
	})
	mcp.AddTool(s, &mcp.Tool{
		Name:        "shared_context",
		Description: "The <shared-context> block of all your shared files, as a prompt hook would inject it.",
		Annotations: readOnly,
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in sharedContextInput) (*mcp.CallToolResult, sharedContextOutput, error) {
		budget := in.Budget
		if budget <= 0 {
			budget = pumasi.DefaultContextBudget
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
