; count to 3 then pass
  r0 = 0
loop:
  r0 += 1          // increment
  if r0 < 3 goto loop
  w0 = 2           # XDP_PASS
  exit
