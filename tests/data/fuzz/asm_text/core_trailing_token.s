.core 0 1
nop
