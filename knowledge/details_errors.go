package knowledge

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
)

// Error strings: the messages a system call's errno (strerror) and an HTTP
// status (its reason phrase) print, and the errno names beside them. Two
// findings that report another error (Permission denied, Operation not
// permitted; Bad Gateway, Gateway Timeout) are about another failure,
// however alike the rest of their words; a rewording keeps the message, or
// names it by its errno (ECONNREFUSED for Connection refused). ParseDetails
// reads them into DetailSet.Errors, DetailsConflict compares them.

// errorStrings maps each message, lower-cased, to the error it reports:
// the errno's name or the HTTP status. Messages that read as plain prose
// too (is a directory, invalid argument, not found) are in errorCased
// instead, and count only as written with their capital.
var errorStrings = map[string]string{
	"operation not permitted": "eperm", "no such file or directory": "enoent", "input/output error": "eio",
	"argument list too long": "e2big", "exec format error": "enoexec", "bad file descriptor": "ebadf",
	"resource temporarily unavailable": "eagain", "cannot allocate memory": "enomem", "permission denied": "eacces",
	"device or resource busy": "ebusy", "invalid cross-device link": "exdev", "too many open files in system": "enfile",
	"too many open files": "emfile", "inappropriate ioctl for device": "enotty", "text file busy": "etxtbsy",
	"no space left on device": "enospc", "read-only file system": "erofs", "broken pipe": "epipe",
	"numerical result out of range": "erange", "resource deadlock avoided": "edeadlk", "file name too long": "enametoolong",
	"function not implemented": "enosys", "directory not empty": "enotempty", "too many levels of symbolic links": "eloop",
	"address already in use": "eaddrinuse", "cannot assign requested address": "eaddrnotavail", "network is down": "enetdown",
	"network is unreachable": "enetunreach", "software caused connection abort": "econnaborted",
	"connection reset by peer": "econnreset", "no buffer space available": "enobufs",
	"transport endpoint is not connected": "enotconn", "connection timed out": "etimedout", "operation timed out": "etimedout",
	"connection refused": "econnrefused", "host is down": "ehostdown", "no route to host": "ehostunreach",
	"stale file handle": "estale", "disk quota exceeded": "edquot",
	"bad gateway": "http502", "gateway timeout": "http504", "service unavailable": "http503",
	"internal server error": "http500", "too many requests": "http429", "payload too large": "http413",
	"request entity too large": "http413", "method not allowed": "http405", "unprocessable entity": "http422",
	"request header fields too large": "http431", "uri too long": "http414",
}

var errorCased = map[string]string{
	"No such process": "esrch", "Interrupted system call": "eintr", "No such device or address": "enxio",
	"Bad address": "efault", "File exists": "eexist", "No such device": "enodev", "Not a directory": "enotdir",
	"Is a directory": "eisdir", "Invalid argument": "einval", "File too large": "efbig", "Illegal seek": "espipe",
	"Too many links": "emlink", "Bad Request": "http400", "Not Found": "http404", "Request Timeout": "http408",
	"Precondition Failed": "http412", "Upgrade Required": "http426", "Not Acceptable": "http406",
}

// errnoNames are the errno names a text may give instead of the message.
var errnoNames = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range errorStrings {
		m[k] = !strings.HasPrefix(k, "http")
	}
	for _, k := range errorCased {
		m[k] = !strings.HasPrefix(k, "http")
	}
	return m
}()

// errorKeys and errorCasedKeys are the messages, longest first, so that
// Too many open files in system is not read as Too many open files.
var errorKeys, errorCasedKeys = longestFirst(errorStrings), longestFirst(errorCased)

// errnoPattern finds the capitalised errno names (ECONNREFUSED).
var errnoPattern = regexp.MustCompile(`\bE[A-Z2]{3,14}\b`)

func longestFirst(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	return keys
}

// addErrors adds the errors that text reports to d.Errors. The messages are
// looked up one by one (strings.Index) rather than as one alternation of
// them all: a regular expression of sixty case-folded phrases between word
// edges ran on Go's NFA and took half of ParseDetails' time, which every
// contribution pays for each of its merge candidates.
func (d DetailSet) addErrors(text string) {
	for _, k := range findPhrases(strings.ToLower(text), errorKeys) {
		d.Errors[errorStrings[k]] = true
	}
	for _, k := range findPhrases(text, errorCasedKeys) {
		d.Errors[errorCased[k]] = true
	}
	for _, m := range errnoPattern.FindAllString(text, -1) {
		if l := strings.ToLower(m); errnoNames[l] {
			d.Errors[l] = true
		}
	}
}

// findPhrases returns the phrases (longest first) found in text between
// word edges, each place read once: a phrase inside a longer one found
// there is not found again.
func findPhrases(text string, phrases []string) []string {
	var out []string
	var taken [][2]int
	for _, p := range phrases {
		for from := 0; ; {
			i := strings.Index(text[from:], p)
			if i < 0 {
				break
			}
			i += from
			j := i + len(p)
			from = i + 1
			if i > 0 && asciiWordByte(text[i-1]) || j < len(text) && asciiWordByte(text[j]) {
				continue
			}
			if slices.ContainsFunc(taken, func(t [2]int) bool { return i < t[1] && t[0] < j }) {
				continue
			}
			taken = append(taken, [2]int{i, j})
			out = append(out, p)
		}
	}
	return out
}

// errorsRival reports whether each text reports an error the other does
// not, where a text that gives an HTTP status by its number (502) reports
// the status its reason phrase names (Bad Gateway): one error in two
// spellings is no other error.
func errorsRival(a, b DetailSet) bool {
	only := func(x, y DetailSet) bool {
		for e := range x.Errors {
			if !y.Errors[e] && !(strings.HasPrefix(e, "http") && y.Atoms[e[len("http"):]]) {
				return true
			}
		}
		return false
	}
	return only(a, b) && only(b, a)
}

// asciiWordByte is a byte of a word as \b reads it: an ASCII letter, digit
// or underscore.
func asciiWordByte(c byte) bool { return c == '_' || asciiAlnum(c) }

// asciiAlnum and asciiLetter read one byte: a byte of a multi-byte rune is
// neither (Hangul next to a quote or a message is a word edge).
func asciiAlnum(c byte) bool  { return asciiLetter(c) || c >= '0' && c <= '9' }
func asciiLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
