package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The chip counts words as a reader of the page's language does.
func TestWordCount(t *testing.T) {
	for text, want := range map[string]int{
		"":                                0,
		"Contact us\nFirst name  Email":   5,
		"Home | News — Sport":             3, // a lone bar or dash is no word
		"don't re-read e-mail, 3.5 times": 5,
		"东京是日本的首都。":                       8, // each character, not the stop
		"東京オリンピック2020が開かれた":        14,
		"Skiff 在浏览器里":              6,
		"서울은 한국의 수도입니다":            3, // Korean puts spaces between words
		"café naïve Ελλάδα Москва": 4,
	} {
		assert.Equal(t, want, wordCount(text), text)
	}
}
