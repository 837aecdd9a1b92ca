package sandbox

import "fmt"

// The Landlock ABI versions that close each channel (go-landlock's V4, V6, V9 and V10).
const (
	abiTCP        = 4  // TCP bind and connect
	abiScoped     = 6  // signals and abstract unix sockets reaching outside the sandbox
	abiUnixPath   = 9  // connecting to pathname unix sockets created outside the sandbox
	abiUDP        = 10 // UDP bind, connect and send
	bwrapAdvice   = "use --sandbox bwrap"
	kernelAdvice  = "needs a newer kernel"
	landlockLabel = "Landlock ABI %d cannot restrict it"
)

// landlockHoles says, for a Landlock ABI, what a confined command can still reach, each line
// naming the channel and what would close it. Empty means nothing known stays open.
func landlockHoles(abi int, netOff bool) []string {
	var out []string
	hole := func(channel string, need int, advice string) {
		out = append(out, fmt.Sprintf("%s: open ("+landlockLabel+", ABI %d would; %s)", channel, abi, need, advice))
	}
	if !netOff {
		hole("TCP", abiTCP, bwrapAdvice)
	}
	if abi < abiUDP {
		hole("UDP", abiUDP, bwrapAdvice)
	}
	if abi < abiScoped {
		hole("signals to troupe and other processes outside the sandbox", abiScoped, kernelAdvice)
		hole("abstract unix sockets", abiScoped, bwrapAdvice)
	}
	if abi < abiUnixPath {
		hole("unix sockets by path (e.g. a docker or ssh-agent socket)", abiUnixPath, kernelAdvice)
	}
	return out
}

// bwrapHoles is what stays open under bubblewrap as troupe runs it.
func bwrapHoles() []string {
	return []string{
		"signals to troupe and other processes of the user: open (bwrap shares troupe's process namespace)",
		"unix sockets by path (e.g. a docker or ssh-agent socket): open (a read-only bind does not stop connect)",
	}
}

// Holes lists what a confined command can still reach, one line each (for `troupe doctor`).
func (s *Sandbox) Holes() []string { return append([]string(nil), s.holes...) }
