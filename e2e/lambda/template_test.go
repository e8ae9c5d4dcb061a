package lambda_test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"pumasi/functions"
	"pumasi/functions/lambdaapp"
	"pumasi/internal/rie"
)

// node helpers over yaml.v3's tree: SAM's !Ref, !Sub and !GetAtt tags
// stay on the nodes (Tag), which plain decoding into Go values would refuse.

func get(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func path(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		n = get(n, k)
	}
	return n
}

func keys(n *yaml.Node) []string {
	var out []string
	if n != nil && n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			out = append(out, n.Content[i].Value)
		}
	}
	return out
}

// scalars returns a scalar's value or a sequence's scalar values.
func scalars(n *yaml.Node) []string {
	switch {
	case n == nil:
		return nil
	case n.Kind == yaml.ScalarNode:
		return []string{n.Value}
	case n.Kind == yaml.SequenceNode:
		var out []string
		for _, c := range n.Content {
			out = append(out, scalars(c)...)
		}
		return out
	}
	return nil
}

// allText returns every scalar under n, for searching policies.
func allText(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	if n.Kind == yaml.ScalarNode {
		return n.Value + "\n"
	}
	var b strings.Builder
	for _, c := range n.Content {
		b.WriteString(allText(c))
	}
	return b.String()
}

type samFunction struct {
	logical string
	props   *yaml.Node
	env     map[string]bool
}

var arnRef = regexp.MustCompile(`\$\{(\w+)\.Arn\}`)
var integrationRef = regexp.MustCompile(`^integrations/\$\{(\w+)\}$`)
var envRead = regexp.MustCompile(`"(PUMASI_[A-Z_]+)"`)

// TestTemplate checks infra/template.yaml against the code: every function
// of lambdaapp has a resource whose code path is its main's zip, every route
// of functions.Routes() is mapped to its function (the WebSocket route to
// $connect), the WebSocket API routes reach ws-*, the sweep runs at 02:00 UTC,
// each function has every env var it reads, and only pushing functions may
// manage connections.
func TestTemplate(t *testing.T) {
	root, err := rie.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	top := loadTemplate(t)
	if got := path(top, "Transform").Value; got != "AWS::Serverless-2016-10-31" {
		t.Fatalf("Transform = %q, want the SAM transform", got)
	}
	globals := path(top, "Globals", "Function")
	resources := path(top, "Resources")
	prop := func(props *yaml.Node, key string) []string {
		if v := get(props, key); v != nil {
			return scalars(v)
		}
		return scalars(get(globals, key))
	}

	byName := map[string]samFunction{}
	types := map[string]string{}
	for _, logical := range keys(resources) {
		r := get(resources, logical)
		types[logical] = path(r, "Type").Value
		if types[logical] != "AWS::Serverless::Function" {
			continue
		}
		props := get(r, "Properties")
		code := path(props, "CodeUri")
		if code == nil || code.Value == "" {
			t.Errorf("%s has no CodeUri", logical)
			continue
		}
		m := regexp.MustCompile(`^\.\./dist/([a-z0-9-]+)\.zip$`).FindStringSubmatch(code.Value)
		if m == nil {
			t.Errorf("%s CodeUri = %q, want ../dist/<function>.zip (make lambda's output)", logical, code.Value)
			continue
		}
		name := m[1]
		if _, err := os.Stat(filepath.Join(root, "functions", name, "main.go")); err != nil {
			t.Errorf("%s CodeUri %s: no functions/%s/main.go builds it", logical, code.Value, name)
		}
		if _, dup := byName[name]; dup {
			t.Errorf("two resources deploy %s", name)
		}
		env := map[string]bool{}
		for _, k := range keys(path(globals, "Environment", "Variables")) {
			env[k] = true
		}
		for _, k := range keys(path(props, "Environment", "Variables")) {
			env[k] = true
		}
		byName[name] = samFunction{logical: logical, props: props, env: env}

		if got := prop(props, "Runtime"); len(got) != 1 || got[0] != "provided.al2023" {
			t.Errorf("%s Runtime = %v, want provided.al2023", logical, got)
		}
		if got := prop(props, "Handler"); len(got) != 1 || got[0] != "bootstrap" {
			t.Errorf("%s Handler = %v, want bootstrap", logical, got)
		}
		if got := prop(props, "Architectures"); len(got) != 1 || got[0] != "arm64" {
			t.Errorf("%s Architectures = %v, want [arm64]", logical, got)
		}
	}

	// Every function the code has is deployed, with the env it reads.
	for _, f := range lambdaapp.Functions() {
		sf, ok := byName[f.Name]
		if !ok {
			t.Errorf("function %s is not in the template", f.Name)
			continue
		}
		reads := append([]string(nil), f.Env...)
		main, err := os.ReadFile(filepath.Join(root, "functions", f.Name, "main.go"))
		if err != nil {
			t.Errorf("functions/%s/main.go: %v", f.Name, err)
		}
		for _, m := range envRead.FindAllStringSubmatch(string(main), -1) {
			reads = append(reads, m[1])
		}
		for _, k := range reads {
			if !sf.env[k] {
				t.Errorf("%s reads %s but the template does not set it", sf.logical, k)
			}
		}
		// What the template sets must satisfy the function's config loader.
		if _, err := lambdaapp.LoadConfig(f.Name, func(k string) string {
			if !sf.env[k] {
				return ""
			}
			if k == lambdaapp.EnvStorage {
				return "s3://bucket/pumasi?region=us-east-1"
			}
			if k == lambdaapp.EnvSweepGrace {
				return "1h"
			}
			if k == lambdaapp.EnvKnowledge {
				return "postgres://pumasi:from-the-secret@db.example:5432/pumasi"
			}
			if v, ok := parameterDefaults(top)[k]; ok {
				// The tuning and CORS knobs: what a deploy with the
				// parameters' defaults hands the function.
				return v
			}
			return "set-by-the-template-0123456789"
		}); err != nil {
			t.Errorf("%s: config from the template's env: %v", sf.logical, err)
		}
	}
	checkKnowledgeDatabase(t, top, byName)
	checkKnowledgeTuning(t, top, byName)
	for name := range byName {
		if _, ok := lambdaapp.Lookup(name); !ok {
			t.Errorf("template deploys %s, which lambdaapp does not know", name)
		}
	}

	// HTTP API events, by function.
	type httpEvent struct{ method, path string }
	events := map[string]map[httpEvent]bool{}
	preflights := map[string][]string{}
	for name, sf := range byName {
		events[name] = map[httpEvent]bool{}
		evs := get(sf.props, "Events")
		for _, k := range keys(evs) {
			ev := get(evs, k)
			if path(ev, "Type").Value != "HttpApi" {
				continue
			}
			p := get(ev, "Properties")
			if api := get(p, "ApiId"); api == nil || api.Tag != "!Ref" || types[api.Value] != "AWS::Serverless::HttpApi" {
				t.Errorf("%s event %s is not on the HttpApi", sf.logical, k)
			}
			method := strings.ToUpper(path(p, "Method").Value)
			if method == "OPTIONS" {
				// CORS preflights: checkPreflights.
				preflights[path(p, "Path").Value] = append(preflights[path(p, "Path").Value], name)
				continue
			}
			events[name][httpEvent{method, path(p, "Path").Value}] = true
		}
	}

	// WebSocket routes: route key → function, through the integration.
	wsRoutes := map[string]string{}
	for _, logical := range keys(resources) {
		if types[logical] != "AWS::ApiGatewayV2::Route" {
			continue
		}
		p := path(resources, logical, "Properties")
		m := integrationRef.FindStringSubmatch(path(p, "Target").Value)
		if m == nil {
			t.Errorf("%s Target = %q, want integrations/${<Integration>}", logical, path(p, "Target").Value)
			continue
		}
		uri := path(resources, m[1], "Properties", "IntegrationUri").Value
		fm := arnRef.FindStringSubmatch(uri)
		if fm == nil {
			t.Errorf("%s integration %s does not invoke a function: %q", logical, m[1], uri)
			continue
		}
		for name, sf := range byName {
			if sf.logical == fm[1] {
				wsRoutes[path(p, "RouteKey").Value] = name
			}
		}
	}
	for route, fn := range map[string]string{"$connect": "ws-connect", "$disconnect": "ws-disconnect", "$default": "ws-default"} {
		if wsRoutes[route] != fn {
			t.Errorf("WebSocket route %s goes to %q, want %s", route, wsRoutes[route], fn)
		}
	}

	// Every route of the code is mapped to the function it names; nothing
	// else is mapped.
	mapped := map[string]map[httpEvent]bool{}
	for _, rt := range functions.Routes() {
		if strings.HasSuffix(rt.Pattern, "/ws") && rt.Function == "ws-connect" {
			// In AWS the daemon's socket is the WebSocket API's $connect.
			if wsRoutes["$connect"] != "ws-connect" {
				t.Errorf("route %s %s: no $connect to ws-connect", rt.Method, rt.Pattern)
			}
			continue
		}
		e := httpEvent{rt.Method, rt.Pattern}
		if !events[rt.Function][e] {
			t.Errorf("route %s %s is not mapped to function %s", rt.Method, rt.Pattern, rt.Function)
		}
		if mapped[rt.Function] == nil {
			mapped[rt.Function] = map[httpEvent]bool{}
		}
		mapped[rt.Function][e] = true
	}
	for name, evs := range events {
		for e := range evs {
			if !mapped[name][e] {
				t.Errorf("template maps %s %s to %s, which does not serve it", e.method, e.path, name)
			}
		}
	}

	checkPreflights(t, top, preflights)

	// The sweep runs daily at 02:00 UTC.
	sweep := byName["sweep"]
	var cron []string
	for _, k := range keys(get(sweep.props, "Events")) {
		ev := path(sweep.props, "Events", k)
		if tp := path(ev, "Type").Value; tp == "ScheduleV2" || tp == "Schedule" {
			p := get(ev, "Properties")
			expr := path(p, "ScheduleExpression")
			if expr == nil {
				expr = path(p, "Schedule")
			}
			tz := "UTC"
			if z := path(p, "ScheduleExpressionTimezone"); z != nil {
				tz = z.Value
			}
			cron = append(cron, expr.Value+" "+tz)
		}
	}
	if len(cron) != 1 || cron[0] != "cron(0 2 * * ? *) UTC" {
		t.Errorf("sweep schedules = %v, want [cron(0 2 * * ? *) UTC]", cron)
	}

	// Least privilege: only functions that push may manage connections, and
	// no function gets s3:* or a wildcard resource.
	pushers := map[string]bool{}
	for _, f := range lambdaapp.Functions() {
		for _, k := range f.Env {
			if k == lambdaapp.EnvGateway {
				pushers[f.Name] = true
			}
		}
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		pol := allText(get(byName[name].props, "Policies"))
		if got := strings.Contains(pol, "execute-api:ManageConnections"); got != pushers[name] {
			t.Errorf("%s may manage connections = %v, want %v", name, got, pushers[name])
		}
		for _, bad := range []string{"s3:*\n", "\n*\n", "Resource: *"} {
			if strings.Contains("\n"+pol, bad) {
				t.Errorf("%s policy has a wildcard %q", name, strings.TrimSpace(bad))
			}
		}
	}
	if n := len(keys(resources)); n == 0 || types["Bucket"] != "AWS::S3::Bucket" {
		t.Errorf("template has no S3 bucket resource")
	}
}

// checkKnowledgeDatabase: every function that reads PUMASI_KNOWLEDGE gets
// it from the Secrets Manager secret the KnowledgeDatabaseUrl parameter
// names (a dynamic reference, resolved at deploy), or not at all when the
// parameter is empty; the parameter refuses a plain postgres:// URL.
func checkKnowledgeDatabase(t *testing.T, top *yaml.Node, byName map[string]samFunction) {
	t.Helper()
	param := path(top, "Parameters", "KnowledgeDatabaseUrl")
	if param == nil {
		t.Fatal("no KnowledgeDatabaseUrl parameter")
	}
	if d := get(param, "Default"); d == nil || d.Value != "" {
		t.Errorf("KnowledgeDatabaseUrl must default to empty (knowledge off)")
	}
	pattern, err := regexp.Compile(path(param, "AllowedPattern").Value)
	if err != nil {
		t.Fatalf("KnowledgeDatabaseUrl AllowedPattern: %v", err)
	}
	for v, ok := range map[string]bool{
		"": true, "pumasi/knowledge-url": true,
		"arn:aws:secretsmanager:us-east-1:123456789012:secret:pumasi/knowledge-url-AbCdEf": true,
		"postgres://pumasi:hunter2@db.example:5432/pumasi":                                 false,
	} {
		if pattern.MatchString(v) != ok {
			t.Errorf("KnowledgeDatabaseUrl AllowedPattern accepts %q = %v, want %v", v, !ok, ok)
		}
	}
	if c := path(top, "Conditions", "HasKnowledgeDatabase"); c == nil || !strings.Contains(allText(c), "KnowledgeDatabaseUrl") {
		t.Errorf("no HasKnowledgeDatabase condition on KnowledgeDatabaseUrl")
	}
	want := "{{resolve:secretsmanager:${KnowledgeDatabaseUrl}}}"
	for _, f := range lambdaapp.Functions() {
		reads := false
		for _, k := range f.Env {
			reads = reads || k == lambdaapp.EnvKnowledge
		}
		sf, ok := byName[f.Name]
		if !ok {
			continue
		}
		v := path(sf.props, "Environment", "Variables", lambdaapp.EnvKnowledge)
		if !reads {
			if v != nil {
				t.Errorf("%s gets %s but does not read it", sf.logical, lambdaapp.EnvKnowledge)
			}
			continue
		}
		if v == nil || v.Tag != "!If" || len(v.Content) != 3 || v.Content[0].Value != "HasKnowledgeDatabase" ||
			v.Content[1].Tag != "!Sub" || v.Content[1].Value != want ||
			v.Content[2].Tag != "!Ref" || v.Content[2].Value != "AWS::NoValue" {
			t.Errorf("%s %s is not !If [HasKnowledgeDatabase, !Sub %q, !Ref AWS::NoValue]", sf.logical, lambdaapp.EnvKnowledge, want)
		}
	}
}

// loadTemplate parses infra/template.yaml and returns its top mapping.
func loadTemplate(t *testing.T) *yaml.Node {
	t.Helper()
	root, err := rie.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(root, "infra", "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("parse template: %v", err)
	}
	return doc.Content[0]
}
