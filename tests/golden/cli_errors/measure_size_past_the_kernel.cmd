measure attention_fwd --manifest /dev/null --dry-run --sizes 128,512
