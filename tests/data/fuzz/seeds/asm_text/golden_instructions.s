# Golden encodings: each instruction line is followed by its 64 bytes in hex
# (little-endian; header: opcode, queue, flags u16, workload u32; docs/isa.md).
# The wait_local and wait_token encodings were checked by hand field by
# field; the file pins all of them.
.core 7
nop
end
wait_local q=pe on=dma_in count=3 wl=12
wait_token q=noc kind=credit transfer=56 from=1 count=2 wl=12
signal q=ctrl kind=credit transfer=56 to=3 grant=428544 grant_bytes=802816 wl=2
view q=dma_in shift=-512 box0=[0,0,0,0]:[0,2047,127,0] box1=[0,0,0,0]:[0,0,0,0] wl=3
dma_in l2=4096 bytes=768 dram=8192 transfer=2 dst_box=[0,0,0,0]:[0,2,15,15] src_box=[0,0,0,0]:[0,2,15,15] wl=0
# A DRAM multicast: one of the four cores' reads of part 1 of transfer 2.
dma_in l2=4096 bytes=768 dram=8192 transfer=2 dst_box=[0,0,0,0]:[0,2,15,15] src_box=[0,0,0,0]:[0,2,15,15] members=4 part=1 wl=0
dma_out l2=1024 bytes=512 dram=16384 transfer=3 src_box=[0,0,0,0]:[0,7,7,7] wl=0
noc_send src=1024 dst=0 bytes=512 to=1 transfer=3 src_box=[0,0,0,0]:[0,7,7,7] dst_box=[0,0,0,0]:[0,15,7,7] wl=0
wl0_load source=dram wl0=0 bytes=216 l2=0 dram=4096 transfer=1 wl=1
pe_cfg loop=KNHW cut=kh ci_cut=1 mtc0=1 mtk0=2 om_n=1 om_k=8 om_h=1 om_w=8 am_n=1 am_c=3 am_h=3 am_w=17 pad_t=0 pad_b=1 pad_l=0 pad_r=1 r=3 s=3 stride_h=2 stride_w=2 wl0=0 gk=16 gc=3 in_h=16 in_w=16 shift=10 chain=1 per_sample wl=0
pe_run ifmap=256 ifmap_bytes=768 weight=0 weight_bytes=216 ofmap=1024 ofmap_bytes=512 ifmap_box=[0,0,0,0]:[0,2,15,15] ofmap_box=[0,0,0,0]:[0,7,7,7] acc wl=0
vp_run op=pool_max inputs=1 window=2 stride=2 in0=0 in1=0 out=1024 in_bytes=1024 out_bytes=256 in_box=[0,0,0,0]:[0,15,7,7] out_box=[0,0,0,0]:[0,15,3,3] wl=0
vp_cfg r=3 s=3 stride_h=2 stride_w=2 pad_t=0 pad_l=0 in_h=112 in_w=112 shift=4 perm=216 wl=5
