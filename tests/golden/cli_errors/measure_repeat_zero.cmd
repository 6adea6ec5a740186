measure micro_copy --manifest /dev/null --dry-run --repeat 0
