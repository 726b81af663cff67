// Package ascii lowers the letters A to Z of a text and nothing else, so that an index found
// in the lowered text is the same place in the text. strings.ToLower changes the length of a
// text whose small letters are longer or shorter ("İ", the Kelvin sign) or that is no UTF-8
// (each bad byte becomes three), so an index into its result may be past the text's end: a
// page's or a server's words could make Skiff fail.
package ascii

// Lower is s with A to Z in small letters, each byte where it was.
func Lower(s string) string {
	i := 0
	for i < len(s) && (s[i] < 'A' || s[i] > 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if c := b[i]; 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
