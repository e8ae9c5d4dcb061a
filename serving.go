package pumasi

import "fmt"

// Serving says where a process keeps what it serves. GET /healthz answers it
// as "serving" and localdev prints it in its banner, so that nobody has to
// guess which bucket or database a server talks to. It never holds a
// password.
type Serving struct {
	// Addr is the base URL the process listens on (empty in Lambda, where
	// the API's domain is API Gateway's).
	Addr      string           `json:"addr,omitempty"`
	Storage   StorageWhere     `json:"storage"`
	Knowledge KnowledgeWhere   `json:"knowledge"`
	Embedder  *EmbedderServing `json:"embedder,omitempty"`
}

// Storage and knowledge kinds of Serving.
const (
	StorageLocal    = "local"
	StorageS3       = "s3"
	KnowledgeSQLite = "sqlite"
	KnowledgePG     = "postgres"
	KnowledgeNone   = "none"
)

// StorageWhere is the room file storage: the local home, or an S3 bucket
// and prefix (and the endpoint, when it is not AWS's own).
type StorageWhere struct {
	Kind     string `json:"kind"`
	Home     string `json:"home,omitempty"`
	Bucket   string `json:"bucket,omitempty"`
	Prefix   string `json:"prefix,omitempty"`
	Endpoint string `json:"endpoint,omitempty"`
}

// String is the banner's line: "local disk under /home" or
// "s3 bucket b, prefix p, endpoint http://…".
func (s StorageWhere) String() string {
	switch s.Kind {
	case StorageLocal:
		return "local disk under " + s.Home
	case StorageS3:
		out := "s3 bucket " + s.Bucket
		if s.Prefix != "" {
			out += ", prefix " + s.Prefix
		} else {
			out += ", no prefix"
		}
		if s.Endpoint != "" {
			out += ", endpoint " + s.Endpoint
		}
		return out
	}
	return s.Kind
}

// KnowledgeWhere is the knowledge store: a SQLite database file, or a
// PostgreSQL host and database (URL with its password masked).
type KnowledgeWhere struct {
	Kind     string `json:"kind"`
	Path     string `json:"path,omitempty"`
	Host     string `json:"host,omitempty"`
	Database string `json:"database,omitempty"`
	URL      string `json:"url,omitempty"`
}

// String is the banner's line: "SQLite /home/pumasi.db" or
// "PostgreSQL database d on host:5432 (postgres://u:xxxxx@host/d)".
func (k KnowledgeWhere) String() string {
	switch k.Kind {
	case KnowledgeSQLite:
		return "SQLite " + k.Path
	case KnowledgePG:
		return fmt.Sprintf("PostgreSQL database %s on %s (%s)", k.Database, k.Host, k.URL)
	case KnowledgeNone:
		return "none configured"
	}
	return k.Kind
}

// EmbedderServing names the embedder by its model name (which carries a
// digest of what shapes its vectors) and, for a remote one, its URL.
type EmbedderServing struct {
	Model string `json:"model"`
	URL   string `json:"url,omitempty"`
}

// String is the banner's line.
func (e EmbedderServing) String() string {
	if e.URL == "" {
		return e.Model + " (offline, built in)"
	}
	return e.Model + " at " + e.URL
}
