package localdev

import (
	"net/http"
)

// headerSlack is what net/http reads past http.Server.MaxHeaderBytes (its
// "bufio slop", 4,096 bytes): the server is given MaxHeaderBytes less that,
// so that on a fresh connection a request head (request line, header
// fields and the blank line that ends them) of exactly MaxHeaderBytes is
// served and one byte more answers 431, as SECURITY.md says.
const headerSlack = 4096

// limitHead answers 431 for a request whose head, counted the way clients
// send it ("Name: value" lines), is past MaxHeaderBytes. net/http counts
// exactly only on a fresh connection: on a kept-alive one it has already
// buffered up to 4 KiB of the next request before it starts counting.
func limitHead(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if headSize(r) > MaxHeaderBytes {
			w.Header().Set("Connection", "close")
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusRequestHeaderFieldsTooLarge)
			_, _ = w.Write([]byte("431 Request Header Fields Too Large"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// headSize is the size of r's head as an ordinary client sends it: the
// request line, "Name: value\r\n" per header line (Host included) and the
// blank line.
func headSize(r *http.Request) int {
	n := len(r.Method) + 1 + len(r.RequestURI) + 1 + len(r.Proto) + 2
	if r.Host != "" {
		n += len("Host: ") + len(r.Host) + 2
	}
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + 2 + len(v) + 2
		}
	}
	return n + 2
}
