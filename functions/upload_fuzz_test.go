package functions

import (
	"bytes"
	"net/http/httptest"
	"testing"

	"pumasi"
)

// FuzzReadUpload feeds arbitrary multipart bodies to the upload parser: it
// must never panic, never return more than the size limit, and only return
// errors carrying a client error code.
func FuzzReadUpload(f *testing.F) {
	f.Add("multipart/form-data; boundary=b", []byte("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.md\"\r\n\r\nhello\r\n--b--\r\n"))
	f.Add("multipart/form-data; boundary=b", []byte("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"../../x\"\r\n\r\nx\r\n--b--\r\n"))
	f.Add("multipart/form-data; boundary=b", []byte("--b\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nx\r\n--b\r\nContent-Disposition: form-data; name=\"file\"; filename*=UTF-8''%ED%9A%8C.md\r\n\r\n\xed\x9a\x8c\r\n--b--\r\n"))
	f.Add("multipart/form-data; boundary=b", []byte("--b\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nunterminated"))
	f.Add("multipart/form-data", []byte("no boundary"))
	f.Add("text/plain", []byte("raw body"))
	f.Add("multipart/form-data; boundary=\"", []byte("--\r\n"))
	f.Fuzz(func(t *testing.T, ctype string, body []byte) {
		r := httptest.NewRequest("POST", "/rooms/r1/files", bytes.NewReader(body))
		r.Header.Set("Content-Type", ctype)
		name, got, err := readUpload(r)
		if err != nil {
			switch pumasi.ErrorCode(err) {
			case pumasi.EInvalidRequest, pumasi.ETooLarge:
			default:
				t.Fatalf("error code %q for a client mistake: %v", pumasi.ErrorCode(err), err)
			}
			return
		}
		if len(got) > pumasi.MaxFileSize {
			t.Fatalf("returned %d bytes, over the limit", len(got))
		}
		if n, err := pumasi.NormalizeName(name); err == nil && (n == ".." || bytes.ContainsAny([]byte(n), "/\\")) {
			t.Fatalf("unsafe name %q passed the rules", n)
		}
	})
}
