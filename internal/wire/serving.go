package wire

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"pumasi"
	"pumasi/functions"
	"pumasi/internal/wire/cloud"
)

// DescribeStorage parses PUMASI_STORAGE ("local", empty for local, or an
// s3:// URL) into where room files live. A value that does not parse is an
// error naming the variable: nothing falls back to the local disk.
func DescribeStorage(storage, home string) (pumasi.StorageWhere, error) {
	switch {
	case storage == "" || storage == "local":
		if home == "" {
			return pumasi.StorageWhere{}, fmt.Errorf("local storage needs a home folder (PUMASI_HOME)")
		}
		return pumasi.StorageWhere{Kind: pumasi.StorageLocal, Home: home}, nil
	case strings.HasPrefix(storage, "s3://"):
		return cloud.DescribeS3(storage)
	}
	return pumasi.StorageWhere{}, fmt.Errorf("PUMASI_STORAGE %q: want local or s3://bucket/prefix?endpoint=…&region=…&path_style=true", storage)
}

// DescribeKnowledge parses PUMASI_KNOWLEDGE into where knowledge lives:
// PostgreSQL for a postgres:// URL, else the SQLite database of the home
// (the local store's own, or the one kept beside S3 file storage). A value
// that does not parse is an error naming the variable, never the password.
func DescribeKnowledge(knowledgeURL, home string) (pumasi.KnowledgeWhere, error) {
	switch {
	case strings.HasPrefix(knowledgeURL, "postgres://") || strings.HasPrefix(knowledgeURL, "postgresql://"):
		return cloud.DescribePostgres(knowledgeURL)
	case knowledgeURL != "":
		return pumasi.KnowledgeWhere{}, fmt.Errorf("PUMASI_KNOWLEDGE must be empty (knowledge in the home's SQLite database) or a postgres://user:pass@host/db URL")
	case home == "":
		return pumasi.KnowledgeWhere{Kind: pumasi.KnowledgeNone}, nil
	}
	return pumasi.KnowledgeWhere{Kind: pumasi.KnowledgeSQLite, Path: filepath.Join(home, "pumasi.db")}, nil
}

// DescribeEmbedder names e by its model and, for a remote one, the URL
// (without any user, password or query).
func DescribeEmbedder(e functions.Embedder, cfg EmbedderConfig) *pumasi.EmbedderServing {
	if e == nil {
		return nil
	}
	out := &pumasi.EmbedderServing{Model: e.Model()}
	if cfg.URL != "" {
		if u, err := url.Parse(cfg.URL); err == nil {
			u.User, u.RawQuery, u.Fragment = nil, "", ""
			out.URL = u.String()
		} else {
			out.URL = "(unparsable URL)"
		}
	}
	return out
}
