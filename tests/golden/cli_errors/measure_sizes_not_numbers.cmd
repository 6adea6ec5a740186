measure micro_copy --manifest /dev/null --dry-run --sizes 4096,x
