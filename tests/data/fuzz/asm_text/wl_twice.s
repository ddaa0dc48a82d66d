.core 0
wait_local q=pe on=dma_in count=3 wl=1 wl=2
