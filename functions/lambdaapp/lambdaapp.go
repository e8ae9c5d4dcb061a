// Package lambdaapp wires pumasi's handlers into AWS Lambda functions. Each
// functions/<name>/main.go reads its configuration with LoadConfig and hands
// it to one Start function; everything else lives here, so the mains stay
// a few lines and the template test can check their env from one table.
package lambdaapp

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"pumasi"
	"pumasi/adapters/push"
	"pumasi/functions"
	"pumasi/internal/wire/cloud"
)

// Env vars a function may read (DESIGN.md §9).
const (
	EnvStorage         = "PUMASI_STORAGE"
	EnvSecret          = "PUMASI_SECRET"
	EnvGateway         = "PUMASI_GATEWAY_ENDPOINT"
	EnvEmbeddingsURL   = "PUMASI_EMBEDDINGS_URL"
	EnvEmbeddingsModel = "PUMASI_EMBEDDINGS_MODEL"
	EnvEmbeddingsKey   = "PUMASI_EMBEDDINGS_KEY"
	EnvSweepGrace      = "PUMASI_SWEEP_GRACE"
	EnvKnowledge       = "PUMASI_KNOWLEDGE"
	EnvCORSOrigins     = "PUMASI_CORS_ORIGINS"
	EnvCORSRoutes      = "PUMASI_CORS_ROUTES"
	EnvAllowedHosts    = "PUMASI_ALLOWED_HOSTS"
	EnvOfflineAfter    = functions.EnvOfflineAfter
)

// Kinds of function: what event a function's handler takes.
const (
	KindHTTP      = "http"      // API Gateway HTTP API payload v2
	KindWebSocket = "websocket" // API Gateway WebSocket API proxy event
	KindSchedule  = "schedule"  // EventBridge scheduled event
)

// Function is one Lambda function: its kind and the env it reads.
type Function struct {
	Name string
	Kind string
	// Env are the variables the function reads; Required must be set.
	Env      []string
	Required []string
}

var (
	storageSecret = []string{EnvStorage, EnvSecret}
	// Every HTTP function reads the CORS policy: each answers its routes'
	// preflights (OPTIONS) and adds the headers to its answers, so they
	// must all hold the one policy localdev holds. The Host check's extra
	// names (PUMASI_ALLOWED_HOSTS) go with it: the API's own domain is
	// served without them.
	cors = []string{EnvCORSOrigins, EnvCORSRoutes, EnvAllowedHosts}
	// The file functions keep room history by one retention (PUMASI_HISTORY_*).
	httpStorage = with(storageSecret, cors, pumasi.HistoryEnv)
	pushing     = with([]string{EnvStorage, EnvSecret, EnvGateway}, cors, pumasi.HistoryEnv)
	// The knowledge functions build the engine with the same tuning
	// localdev reads (functions.ReadKnowledgeTuning).
	knowledgeEnv = with([]string{EnvStorage, EnvKnowledge}, functions.KnowledgeTuningEnv)
	embedding    = with(knowledgeEnv, []string{EnvEmbeddingsURL, EnvEmbeddingsModel, EnvEmbeddingsKey})
)

// with returns a new list of the variables of lists, in order.
func with(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// table is the list of functions of DESIGN.md §2 plus health, which the
// route table names for GET /healthz.
var table = []Function{
	{Name: "upload", Kind: KindHTTP, Env: pushing, Required: storageSecret},
	// list and placements say which agents are offline (GET /rooms, GET
	// /rooms/{room}/agents).
	{Name: "list", Kind: KindHTTP, Env: with(httpStorage, []string{EnvOfflineAfter}), Required: storageSecret},
	{Name: "get", Kind: KindHTTP, Env: httpStorage, Required: storageSecret},
	{Name: "delete", Kind: KindHTTP, Env: pushing, Required: storageSecret},
	{Name: "resolve", Kind: KindHTTP, Env: httpStorage, Required: storageSecret},
	{Name: "placements", Kind: KindHTTP, Env: with(pushing, []string{EnvOfflineAfter}), Required: storageSecret},
	{Name: "assignments", Kind: KindHTTP, Env: httpStorage, Required: storageSecret},
	{Name: "status", Kind: KindHTTP, Env: httpStorage, Required: storageSecret},
	// Every function that takes knowledge writes reads the secret: a
	// keyed writer's handle is an HMAC of its key under it (functions'
	// keyHandle), so one key is one handle in every function and localdev.
	{Name: "knowledge-contribute", Kind: KindHTTP, Env: with(embedding, cors, []string{EnvSecret}), Required: []string{EnvStorage}},
	// knowledge-query reads the secret for an admin's include=quarantined.
	{Name: "knowledge-query", Kind: KindHTTP, Env: with(embedding, cors, []string{EnvSecret}), Required: []string{EnvStorage}},
	{Name: "knowledge-counters", Kind: KindHTTP, Env: with(knowledgeEnv, cors, []string{EnvSecret}), Required: []string{EnvStorage}},
	// knowledge-moderate: flag (anyone who may write knowledge), history
	// (public), restore, redact, unmerge and the moderation view (admin
	// tokens, hence the secret).
	{Name: "knowledge-moderate", Kind: KindHTTP, Env: with(knowledgeEnv, cors, []string{EnvSecret}), Required: []string{EnvStorage}},
	// health checks what the others need: the bucket and the knowledge
	// database, when there is one.
	{Name: "health", Kind: KindHTTP, Env: with([]string{EnvStorage, EnvKnowledge}, cors)},
	{Name: "ws-connect", Kind: KindWebSocket, Env: storageSecret, Required: storageSecret},
	{Name: "ws-disconnect", Kind: KindWebSocket, Env: []string{EnvStorage}, Required: []string{EnvStorage}},
	{Name: "ws-default", Kind: KindWebSocket, Env: []string{EnvStorage}, Required: []string{EnvStorage}},
	// The sweep embeds too: it merges at the embedder's own threshold (or
	// PUMASI_MERGE_THRESHOLD), and embeds again entries an earlier
	// embedder made.
	{Name: "sweep", Kind: KindSchedule, Env: with([]string{EnvSweepGrace}, embedding, pumasi.HistoryEnv), Required: []string{EnvStorage}},
}

// Functions returns every Lambda function, sorted by name.
func Functions() []Function {
	out := append([]Function(nil), table...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the function called name.
func Lookup(name string) (Function, bool) {
	for _, f := range table {
		if f.Name == name {
			return f, true
		}
	}
	return Function{}, false
}

// Config is one function's configuration, read from its env.
type Config struct {
	Function        Function
	Storage         string
	Secret          []byte
	GatewayEndpoint string
	Embeddings      EmbedderConfig
	SweepGrace      time.Duration
	// Knowledge is the postgres:// URL of the knowledge database
	// (PUMASI_KNOWLEDGE); empty leaves the knowledge routes answering 500.
	Knowledge string
	// Tuning is the knowledge engine's merge threshold, half-life and
	// vector weight, read as localdev reads them.
	Tuning functions.KnowledgeTuning
	// CORS is the browser policy of an HTTP function (PUMASI_CORS_ORIGINS,
	// PUMASI_CORS_ROUTES), the same one localdev serves.
	CORS functions.CORS
	// AllowedHosts are the names an HTTP function serves besides the API's
	// own domain and loopback (PUMASI_ALLOWED_HOSTS).
	AllowedHosts functions.AllowedHosts
	// History is the room file history's retention (PUMASI_HISTORY_*).
	History pumasi.Retention
	// OfflineAfter is when a silent machine's agents show offline
	// (PUMASI_OFFLINE_AFTER; zero: functions.DefaultOfflineAfter).
	OfflineAfter time.Duration
}

// EmbedderConfig selects the embedder: the offline hashed one unless URL is
// set.
type EmbedderConfig = cloud.EmbedderConfig

// DefaultSweepGrace is how old an unreferenced blob must be before the
// scheduled sweep removes it.
const DefaultSweepGrace = time.Hour

// LoadConfig reads function's configuration through getenv (os.Getenv in a
// main). It reads only the variables the function's table entry lists, so
// the template test's check of that list is a check of what runs.
func LoadConfig(function string, getenv func(string) string) (Config, error) {
	f, ok := Lookup(function)
	if !ok {
		return Config{}, fmt.Errorf("unknown function %q", function)
	}
	env := map[string]string{}
	for _, k := range f.Env {
		env[k] = strings.TrimSpace(getenv(k))
	}
	for _, k := range f.Required {
		if env[k] == "" {
			return Config{}, fmt.Errorf("function %s: %s is not set", function, k)
		}
	}
	cfg := Config{
		Function:        f,
		Storage:         env[EnvStorage],
		GatewayEndpoint: env[EnvGateway],
		Embeddings:      cloud.EmbedderConfig{URL: env[EnvEmbeddingsURL], Model: env[EnvEmbeddingsModel], Key: env[EnvEmbeddingsKey]},
		SweepGrace:      DefaultSweepGrace,
		Knowledge:       env[EnvKnowledge],
	}
	if k := cfg.Knowledge; k != "" && !cloud.IsPostgres(k) {
		// Never echo the value: it holds the database password.
		return Config{}, fmt.Errorf("function %s: %s must be a postgres:// URL", function, EnvKnowledge)
	}
	if cfg.Storage != "" && !cloud.IsS3(cfg.Storage) {
		// A Lambda's disk is private to one instance and lost with it.
		return Config{}, fmt.Errorf("function %s: %s must be an s3:// URL in Lambda, not %q", function, EnvStorage, cfg.Storage)
	}
	if s := env[EnvSecret]; s != "" {
		if len(s) < 16 {
			return Config{}, fmt.Errorf("function %s: %s is shorter than 16 bytes", function, EnvSecret)
		}
		cfg.Secret = []byte(s)
	}
	// A bad knob fails the cold start (Fatal), as it stops localdev.
	tuning, err := functions.ReadKnowledgeTuning(func(k string) string { return env[k] })
	if err != nil {
		return Config{}, fmt.Errorf("function %s: %w", function, err)
	}
	cfg.Tuning = tuning
	if cfg.CORS, err = functions.ParseCORS(envOr(env, EnvCORSOrigins, "*"), env[EnvCORSRoutes]); err != nil {
		return Config{}, fmt.Errorf("function %s: %w", function, err)
	}
	if cfg.AllowedHosts, err = functions.ParseAllowedHosts(env[EnvAllowedHosts]); err != nil {
		return Config{}, fmt.Errorf("function %s: %w", function, err)
	}
	if cfg.History, err = pumasi.RetentionFromEnv(func(k string) string { return env[k] }); err != nil {
		return Config{}, fmt.Errorf("function %s: %w", function, err)
	}
	if cfg.OfflineAfter, err = functions.ParseOfflineAfter(env[EnvOfflineAfter]); err != nil {
		return Config{}, fmt.Errorf("function %s: %w", function, err)
	}
	if s := env[EnvSweepGrace]; s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 {
			return Config{}, fmt.Errorf("function %s: %s %q is not a duration", function, EnvSweepGrace, s)
		}
		cfg.SweepGrace = d
	}
	return cfg, nil
}

// envOr is env[key], or def when it is blank.
func envOr(env map[string]string, key, def string) string {
	if v := env[key]; v != "" {
		return v
	}
	return def
}

// initTimeout bounds the cold start's store and SDK setup.
const initTimeout = 20 * time.Second

// Open builds the API a function serves: its store, and its pusher and
// knowledge store when it uses them, through the wiring root's SQLite-free
// half (internal/wire/cloud): no function links SQLite, so bootstraps stay
// small and start fast.
func Open(ctx context.Context, cfg Config, log *slog.Logger) (*functions.API, error) {
	api := &functions.API{Secret: cfg.Secret, Log: log, CORS: cfg.CORS, MergeThreshold: cfg.Tuning.MergeThreshold, OfflineAfter: cfg.OfflineAfter}
	if cfg.Storage == "" {
		return api, nil
	}
	store, err := cloud.OpenS3(ctx, cloud.S3Config{URL: cfg.Storage, Log: log, History: cfg.History})
	if err != nil {
		return nil, err
	}
	api.Store = store
	fail := func(err error) (*functions.API, error) {
		store.Close()
		return nil, err
	}
	if api.Serving, err = serving(cfg); err != nil {
		return fail(err)
	}
	if cfg.GatewayEndpoint != "" {
		g, err := push.NewGateway(ctx, cfg.GatewayEndpoint, store, push.GatewayOptions{Log: log})
		if err != nil {
			return fail(err)
		}
		api.Pusher = g
	}
	name := cfg.Function.Name
	knows := strings.HasPrefix(name, "knowledge-") || name == "sweep"
	if (knows || name == "health") && cfg.Knowledge != "" {
		// A warm container keeps its engine (and pool) for its life.
		if api.Knowledge, _, err = cloud.OpenPostgres(ctx, cloud.PostgresConfig{URL: cfg.Knowledge,
			MaxConns: KnowledgePoolSize, Options: cfg.Tuning.Options(), Log: log}); err != nil {
			return fail(err)
		}
	} else if knows {
		// The knowledge routes answer 500 and log.
		log.Warn("no knowledge database: set " + EnvKnowledge)
	}
	if knows && name != "knowledge-counters" && name != "knowledge-moderate" {
		if api.Embedder, err = cloud.OpenEmbedder(cfg.Embeddings); err != nil {
			return fail(err)
		}
	}
	if api.Embedder != nil {
		api.Serving.Embedder = &pumasi.EmbedderServing{Model: api.Embedder.Model()}
	}
	return api, nil
}

// serving says where the function keeps what it serves (GET /healthz's
// "serving"): the bucket and prefix, and the knowledge database's host and
// name with its password masked.
func serving(cfg Config) (*pumasi.Serving, error) {
	st, err := cloud.DescribeS3(cfg.Storage)
	if err != nil {
		return nil, fmt.Errorf("function %s: %w", cfg.Function.Name, err)
	}
	sv := &pumasi.Serving{Storage: st, Knowledge: pumasi.KnowledgeWhere{Kind: pumasi.KnowledgeNone}}
	if cfg.Knowledge != "" {
		if sv.Knowledge, err = cloud.DescribePostgres(cfg.Knowledge); err != nil {
			return nil, fmt.Errorf("function %s: %w", cfg.Function.Name, err)
		}
	}
	return sv, nil
}

// KnowledgePoolSize is the most connections one warm function instance
// holds to the knowledge database. A Lambda instance serves one request at
// a time and a request runs its queries one after another, so one
// connection is busy at most; the second spares a request the reconnect
// when the first was dropped. Each concurrent instance holds its own pool,
// so the database sees up to 2 × concurrent instances connections: put RDS
// Proxy (or PgBouncer) in front when that nears max_connections.
const KnowledgePoolSize = 2

// Logger is the JSON logger a function writes to CloudWatch with.
func Logger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(os.Stderr, nil))
}

// Fatal reports a configuration error and exits: it logs err, reports it on
// the runtime API's init error path (ReportInitError), so the invocation
// that started this cold start answers with it, and exits; Lambda retries
// the cold start on the next invocation.
func Fatal(err error) {
	log := Logger()
	log.Error("function init failed", "err", err)
	if rerr := ReportInitError(context.Background(), runtimeAPI(), err); rerr != nil {
		log.Warn("init failure not reported to the runtime API", "err", rerr)
	}
	os.Exit(1)
}

// Start opens cfg's function and serves its events until the runtime stops
// it. It never returns.
func Start(cfg Config) {
	log := Logger().With("function", cfg.Function.Name)
	ctx, cancel := context.WithTimeout(context.Background(), initTimeout)
	api, err := Open(ctx, cfg, log)
	cancel()
	if err != nil {
		Fatal(err)
	}
	switch cfg.Function.Kind {
	case KindHTTP:
		lambda.Start(HTTPHandler(api, cfg.Function.Name, cfg.AllowedHosts))
	case KindWebSocket:
		h, err := WebSocketHandler(api, cfg.Function.Name)
		if err != nil {
			Fatal(err)
		}
		lambda.Start(h)
	case KindSchedule:
		lambda.Start(SweepHandler(api, cfg.SweepGrace))
	default:
		Fatal(fmt.Errorf("function %s has unknown kind %q", cfg.Function.Name, cfg.Function.Kind))
	}
}

// HTTPHandler serves the routes of function, through the same adapter and
// handlers localdev runs; a request for another function's route answers
// 404, as it would if API Gateway routed it here by mistake. In front of
// them the edge checks (functions.Edge) refuse a Host other than the API's
// own domain (the event's domainName), loopback or hosts, and a write from
// an origin neither served nor opened by the CORS policy.
func HTTPHandler(api *functions.API, function string, hosts functions.AllowedHosts) func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	own := ownRoutes(function)
	all := api.Handler()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !own(r.Method, r.URL.EscapedPath()) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `{"success":false,"error":{"code":%q,"message":"no such endpoint"}}`+"\n", pumasi.ENotFound)
			return
		}
		all.ServeHTTP(w, r)
	})
	return functions.LambdaHTTP(functions.Edge{Hosts: hosts, CORS: api.CORS}.Wrap(h))
}

// ownRoutes returns a matcher of the requests function serves: its routes,
// and the CORS preflight (OPTIONS) of their paths, which the template routes
// to it so that API Gateway does not answer it with a policy of its own.
func ownRoutes(function string) func(method, escapedPath string) bool {
	var mine []functions.Route
	for _, rt := range functions.Routes() {
		if rt.Function == function {
			mine = append(mine, rt)
		}
	}
	return func(method, escapedPath string) bool {
		segs := strings.Split(strings.TrimPrefix(escapedPath, "/"), "/")
		for _, rt := range mine {
			if rt.Method != method && !(rt.Method == http.MethodGet && method == http.MethodHead) && method != http.MethodOptions {
				continue
			}
			if matches(rt.Pattern, segs) {
				return true
			}
		}
		return false
	}
}

// matches reports whether escaped path segments fit a route pattern.
// A literal segment must match exactly; a {param} matches one non-empty
// segment.
func matches(pattern string, segs []string) bool {
	ps := strings.Split(strings.TrimPrefix(pattern, "/"), "/")
	if len(ps) != len(segs) {
		return false
	}
	for i, p := range ps {
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			if segs[i] == "" {
				return false
			}
			continue
		}
		if s, err := url.PathUnescape(segs[i]); err != nil || s != p {
			return false
		}
	}
	return true
}

// WebSocketHandler returns the handler of one WebSocket route function.
func WebSocketHandler(api *functions.API, function string) (func(ctx context.Context, ev events.APIGatewayWebsocketProxyRequest) (functions.WSResponse, error), error) {
	switch function {
	case "ws-connect":
		return api.WSConnect, nil
	case "ws-disconnect":
		return api.WSDisconnect, nil
	case "ws-default":
		return api.WSDefault, nil
	}
	return nil, fmt.Errorf("no WebSocket route for function %q", function)
}

// SweepReport is what the scheduled sweep returns (and logs).
type SweepReport = functions.SweepReport

// SweepHandler runs the daily sweep: unreferenced blobs older than grace,
// then racing near-duplicate knowledge entries.
func SweepHandler(api *functions.API, grace time.Duration) func(ctx context.Context, ev events.EventBridgeEvent) (SweepReport, error) {
	return func(ctx context.Context, ev events.EventBridgeEvent) (SweepReport, error) {
		rep, err := api.Sweep(ctx, grace)
		if err != nil {
			return rep, err
		}
		if api.Log != nil {
			api.Log.Info("sweep", "temp_files", rep.Files.TempFiles, "blobs", rep.Files.Blobs, "knowledge", rep.Knowledge)
		}
		return rep, nil
	}
}
