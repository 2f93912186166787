# may_goto loops: the kernel bounds a loop by may_goto only on its
# fall-through (one iteration deeper); it follows the jump first, with the
# same count. A may_goto whose jump leads back to it through code without a
# branch is a cycle the kernel's walk never leaves ("infinite loop detected").
# prog-type: socket

# case: may_goto_exit_loop
# expect: accept
# the usual shape (can_loop): the jump leaves the loop
r0 = 0
l:
may_goto out
r0 += 1
goto l
out:
r0 = 0
exit

# case: may_goto_self
# expect: reject
# message: infinite loop detected
r0 = 0
l:
may_goto l
r0 = 0
exit

# case: may_goto_back_straight
# expect: reject
# message: infinite loop detected
# the jump goes back over straight-line code (and an unconditional jump)
r1 = 0
l:
r1 = 1
may_goto back
r0 = 0
exit
back:
r2 = 3
goto l

# case: may_goto_back_changing
# expect: reject
# message: infinite loop detected|too large|too complex
# a state that changes every time does not help: nothing leaves the cycle
r1 = 0
l:
r1 += 1
may_goto back
r0 = 0
exit
back:
goto l

# case: may_goto_back_through_branch
# expect: accept
# a conditional jump on the way back ends the cycle (bounded by r1 here)
r1 = 0
l:
may_goto back
r0 = 0
exit
back:
r1 += 1
if r1 < 10 goto l
r0 = 0
exit

# case: may_goto_through_other_may_goto
# expect: reject
# message: infinite loop detected
# another may_goto on the way back is followed by its jump too
l:
may_goto mid
r0 = 0
exit
mid:
may_goto l
r0 = 1
exit
