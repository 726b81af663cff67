package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestInsertSorted(t *testing.T) {
	var s []int
	for _, v := range []int{5, 1, 4, 1, 9, 2} {
		s = insertSorted(s, v, func(a, b int) bool { return a < b })
	}
	assert.Equal(t, []int{1, 1, 2, 4, 5, 9}, s)
}
