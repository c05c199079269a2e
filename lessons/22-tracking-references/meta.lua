return {
  title = "Tracking references",
  -- sock_sendmsg() on a device that went down puts the socket's reference, and
  -- sock_release() puts it again through the same handle, while the route's reference
  -- keeps the count above zero: "reference-put-twice", at sock_release()'s line.
  intended = "reference-put-twice",
}
