.core 0
view q=dma_in shift=0x-5 box0=[0,0,0,0]:[0,0,0,0] box1=[0,0,0,0]:[0,0,0,0]
