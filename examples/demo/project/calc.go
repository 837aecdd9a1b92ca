// Package calc is the offline demo's tiny project: Sum has a bug its test catches.
package calc

// Sum adds up the numbers.
func Sum(nums ...int) int {
	total := 0
	for i := 1; i < len(nums); i++ {
		total += nums[i]
	}
	return total
}
