suite compact_ballot --size 1048576
