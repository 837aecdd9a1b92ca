package llm

import (
	"errors"
	"net"
	"syscall"
)

// IsUnreachable reports whether err means the provider's server could not be reached at all
// (connection refused, unknown host, no route): a setup problem — a wrong --base-url or a local
// server that is not running — rather than a passing fault.
func IsUnreachable(err error) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) && dns.IsNotFound {
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EHOSTUNREACH) ||
		errors.Is(err, syscall.ENETUNREACH)
}
