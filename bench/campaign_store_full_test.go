//go:build campaign

package bench

// The full store campaign: go test -tags campaign -run StoreCampaign -v ./bench
const (
	storeCampaignKills     = 100
	storeCampaignFlips     = 400
	storeCampaignDeadNodes = 10
)
