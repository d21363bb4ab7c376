file(REMOVE_RECURSE
  "librubble.a"
)
