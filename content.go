package pumasi

import (
	"bytes"
	"encoding/json"
	"path"
	"strings"
	"unicode/utf8"
)

// MaxFileSize is the largest room file, in bytes.
const MaxFileSize = 256 << 10

// Room quotas by default; stores take their own limits from config.
const (
	DefaultMaxRoomFiles = 1000
	DefaultMaxRoomBytes = 64 << 20
)

var binaryExt = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".bmp": true, ".webp": true,
	".ico": true, ".tif": true, ".tiff": true, ".heic": true, ".pdf": true, ".zip": true,
	".gz": true, ".tgz": true, ".bz2": true, ".xz": true, ".zst": true, ".7z": true,
	".rar": true, ".tar": true, ".jar": true, ".war": true, ".exe": true, ".dll": true,
	".so": true, ".dylib": true, ".a": true, ".o": true, ".class": true, ".wasm": true,
	".bin": true, ".dmg": true, ".iso": true, ".mp3": true, ".mp4": true, ".mov": true,
	".avi": true, ".wav": true, ".flac": true, ".ogg": true, ".woff": true, ".woff2": true,
	".ttf": true, ".otf": true, ".db": true, ".sqlite": true, ".pyc": true, ".doc": true,
	".docx": true, ".xls": true, ".xlsx": true, ".ppt": true, ".pptx": true,
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// CheckContent applies the content rules of DESIGN.md §3 to a file about to be
// stored under name (already normalised) and returns its detected content type.
// Returns too_large or unsupported_type.
func CheckContent(name string, body []byte) (string, error) {
	if len(body) > MaxFileSize {
		return "", Errorf(ETooLarge, "file is %d bytes; the limit is %d", len(body), MaxFileSize)
	}
	ext := strings.ToLower(path.Ext(name))
	if binaryExt[ext] {
		return "", Errorf(EUnsupportedType, "%s files are binary; only text files can be shared", ext)
	}
	if bytes.IndexByte(body, 0) >= 0 {
		return "", Errorf(EUnsupportedType, "file contains a NUL byte; only text files can be shared")
	}
	if !utf8.Valid(body) {
		return "", Errorf(EUnsupportedType, "file is not valid UTF-8 text")
	}
	return DetectContentType(name, body), nil
}

// DetectContentType names the media type of a text file from its extension,
// falling back to its first bytes.
func DetectContentType(name string, body []byte) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".md", ".markdown":
		return "text/markdown; charset=utf-8"
	case ".json":
		return "application/json"
	case ".yaml", ".yml":
		return "application/yaml"
	case ".toml":
		return "application/toml"
	case ".csv":
		return "text/csv; charset=utf-8"
	case ".html", ".htm":
		return "text/html; charset=utf-8"
	case ".xml":
		return "application/xml"
	case ".css":
		return "text/css; charset=utf-8"
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	}
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(body, utf8BOM))
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') && json.Valid(trimmed) {
		return "application/json"
	}
	return "text/plain; charset=utf-8"
}
