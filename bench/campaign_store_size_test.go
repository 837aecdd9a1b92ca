//go:build !campaign

package bench

// A handful of iterations keeps the ordinary test suite fast; `go test -tags campaign` runs the
// full campaign (see campaign_store_full_test.go).
const (
	storeCampaignKills     = 3
	storeCampaignFlips     = 20
	storeCampaignDeadNodes = 1
)
