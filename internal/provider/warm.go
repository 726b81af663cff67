package provider

import (
	"fmt"
	"iter"
	"strings"
)

// Warm decodes a reply of n short text events in p's wire format, made here, and yields each
// event. The first reply a worker streams otherwise runs the decoder's code for the first
// time: V8 compiles each function of core.wasm on its first call and optimizes the hot ones
// while the reply streams, so the first reply stalls in bursts (tens of ms each on a busy
// machine) that later replies never see. Decoding a made-up reply while the user writes theirs
// moves that work out of the way.
func (p Provider) Warm(n int) iter.Seq[Event] {
	var b strings.Builder
	for i := range n {
		text := fmt.Sprintf("w%04d ", i)
		switch p.Format {
		case FormatAnthropic:
			if i == 0 {
				b.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n")
				b.WriteString("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n")
			}
			fmt.Fprintf(&b, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":%q}}\n\n", text)
		case FormatGoogle:
			fmt.Fprintf(&b, "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":%q}],\"role\":\"model\"},\"index\":0}]}\n\n", text)
		default:
			fmt.Fprintf(&b, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":%q}}]}\n\n", text)
		}
	}
	return p.Decode(strings.NewReader(b.String()))
}
