package background

import (
	"errors"
	"fmt"
	"io"

	"github.com/troupe-dev/troupe/actors"
	"github.com/troupe-dev/troupe/cmd/troupe/internal/clierr"
	"github.com/troupe-dev/troupe/messages"
)

// Submit hands start to the project's Node as a headless session and prints its id on stdout:
// the session runs on after this process exits. With no Node running, one is started in the
// background first (Start, with the --sandbox flag's value).
func Submit(o Options, stdout, stderr io.Writer, start *messages.StartSession) error {
	info, err := actors.FindNode(o.Root, o.NATS)
	if err != nil {
		if info, err = Start(o); err != nil {
			var setup *SetupError
			if errors.As(err, &setup) {
				return clierr.Usagef("%v", err)
			}
			return err
		}
		fmt.Fprintf(stderr, "troupe: started a background node (pid %d); it stops when idle, or with troupe stop\n", info.PID)
	}
	nc, err := actors.Dial(info, actors.KindClient, o.Creds, "troupe-detach")
	if err != nil {
		return clierr.Failf("attach to the troupe node at %s: %v", info.URL, err)
	}
	client := actors.NewClient(nc, info.NS, info.Node)
	defer client.Close()
	if err := client.StartSession(start); err != nil {
		return clierr.Usagef("%v", err)
	}
	fmt.Fprintln(stdout, start.ID)
	fmt.Fprintf(stderr, "troupe: session %s runs on node %s (pid %d); follow it with troupe attach %s or troupe watch\n",
		start.ID, info.Node, info.PID, start.ID)
	if start.AskUser {
		fmt.Fprintln(stderr, "troupe: tool calls that need approval wait for it: troupe approvals lists them, troupe approve answers")
	}
	return nil
}
