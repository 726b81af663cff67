// Command skiffd is Skiff's native companion. It will serve the extension's tool registry to
// outside agents over MCP (Streamable HTTP on loopback and stdio) and host ACP agents; see
// DESIGN.md, "Where it is going", item 4. Until then it only says so, and exits non-zero so
// nothing mistakes it for a working server.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "skiffd: the MCP server is not built yet (planned after the browser tools and the permission gate)")
	os.Exit(2)
}
