.core 1
signal q=ctrl kind=credit transfer=3 to=0 grant=0 grant_bytes=1024 wl=0  ; wl 0 (Pool_0): L2 ready for transfer 3 from core 0
signal q=ctrl kind=credit transfer=4 to=0 grant=0 grant_bytes=1024 wl=0  ; wl 0 (Pool_0): L2 ready for transfer 4 from core 0
wait_token q=vp kind=data transfer=3 from=0 count=1 wl=0  ; wl 0 (Pool_0): until transfer 3 (data) from core 0
wait_token q=vp kind=data transfer=4 from=0 count=1 wl=0  ; wl 0 (Pool_0): until transfer 4 (data) from core 0
vp_cfg r=2 s=2 stride_h=2 stride_w=2 pad_t=0 pad_l=0 in_h=8 in_w=8 shift=0 perm=228 wl=0  ; wl 0 (Pool_0)
view q=vp shift=0 box0=[0,0,0,0]:[0,0,0,0] box1=[0,0,0,0]:[0,15,3,3] wl=0  ; wl 0 (Pool_0)
vp_run op=pool_max inputs=1 window=2 stride=2 in0=0 in1=0 out=1024 in_bytes=1024 out_bytes=256 in_box=[0,0,0,0]:[0,15,7,7] out_box=[0,0,0,0]:[0,15,3,3] wl=0  ; wl 0 (Pool_0)
wait_local q=dma_out on=vp count=5 wl=0  ; wl 0 (Pool_0)
view q=dma_out shift=0 box0=[0,0,0,0]:[0,15,3,3] box1=[0,0,0,0]:[0,15,3,3] wl=0  ; wl 0 (Pool_0)
dma_out l2=1024 bytes=256 dram=8192 transfer=5 src_box=[0,0,0,0]:[0,15,3,3] wl=0  ; wl 0 (Pool_0): store transfer 5
wait_local q=dma_in on=dma_out count=3 wl=1  ; wl 1 (Add_0)
view q=dma_in shift=0 box0=[0,0,0,0]:[0,15,3,3] box1=[0,0,0,0]:[0,0,0,0] wl=1  ; wl 1 (Add_0)
dma_in l2=1280 bytes=256 dram=8192 transfer=6 dst_box=[0,0,0,0]:[0,15,3,3] src_box=[0,0,0,0]:[0,15,3,3] wl=1  ; wl 1 (Add_0): load transfer 6
wait_local q=vp on=dma_in count=3 wl=1  ; wl 1 (Add_0)
vp_cfg r=1 s=1 stride_h=1 stride_w=1 pad_t=0 pad_l=0 in_h=4 in_w=4 shift=0 perm=228 wl=1  ; wl 1 (Add_0)
view q=vp shift=0 box0=[0,0,0,0]:[0,0,0,0] box1=[0,0,0,0]:[0,15,3,3] wl=1  ; wl 1 (Add_0)
vp_run op=copy inputs=1 window=1 stride=1 in0=1280 in1=0 out=1536 in_bytes=256 out_bytes=256 in_box=[0,0,0,0]:[0,15,3,3] out_box=[0,0,0,0]:[0,15,3,3] wl=1  ; wl 1 (Add_0)
wait_local q=dma_out on=vp count=9 wl=1  ; wl 1 (Add_0)
view q=dma_out shift=0 box0=[0,0,0,0]:[0,15,3,3] box1=[0,0,0,0]:[0,15,3,3] wl=1  ; wl 1 (Add_0)
dma_out l2=1536 bytes=256 dram=16384 transfer=7 src_box=[0,0,0,0]:[0,15,3,3] wl=1  ; wl 1 (Add_0): store transfer 7
end
