return {
  title = "struct kref and refcount_t",
  -- request_firmware()'s -EFBIG path puts the image, then jumps to the label that puts
  -- it again: a reference of another device is dropped, that device's own put frees it
  -- early, and the last put finds the count at 0: "refcount_t: underflow;
  -- use-after-free." (the count saturates; the release is not called again).
  intended = "double-put",
}
