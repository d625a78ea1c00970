/*
 * The context switch of the simulator's fibers: only the callee-saved
 * registers move, so a switch costs a few nanoseconds (no signal mask, no
 * syscall, unlike swapcontext).
 *
 *   void cudasim_ctx_swap(void **save_sp, void *new_sp);  save, then resume new_sp
 *   void cudasim_ctx_jump(void *new_sp);                   resume new_sp, save nothing
 */
#if defined(__x86_64__)
	.text
	.globl cudasim_ctx_swap
	.type cudasim_ctx_swap, @function
cudasim_ctx_swap:
	.cfi_startproc
	pushq %rbp
	pushq %rbx
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	movq %rsp, (%rdi)
	movq %rsi, %rsp
.Lrestore:
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbx
	popq %rbp
	ret
	.cfi_endproc
	.size cudasim_ctx_swap, .-cudasim_ctx_swap

	.globl cudasim_ctx_jump
	.type cudasim_ctx_jump, @function
cudasim_ctx_jump:
	.cfi_startproc
	movq %rdi, %rsp
	jmp .Lrestore
	.cfi_endproc
	.size cudasim_ctx_jump, .-cudasim_ctx_jump

#elif defined(__aarch64__)
	.text
	.globl cudasim_ctx_swap
	.type cudasim_ctx_swap, %function
cudasim_ctx_swap:
	sub sp, sp, #160
	stp x19, x20, [sp, #0]
	stp x21, x22, [sp, #16]
	stp x23, x24, [sp, #32]
	stp x25, x26, [sp, #48]
	stp x27, x28, [sp, #64]
	stp x29, x30, [sp, #80]
	stp d8, d9, [sp, #96]
	stp d10, d11, [sp, #112]
	stp d12, d13, [sp, #128]
	stp d14, d15, [sp, #144]
	mov x2, sp
	str x2, [x0]
	mov sp, x1
	b 1f

	.globl cudasim_ctx_jump
	.type cudasim_ctx_jump, %function
cudasim_ctx_jump:
	mov sp, x0
1:
	ldp x19, x20, [sp, #0]
	ldp x21, x22, [sp, #16]
	ldp x23, x24, [sp, #32]
	ldp x25, x26, [sp, #48]
	ldp x27, x28, [sp, #64]
	ldp x29, x30, [sp, #80]
	ldp d8, d9, [sp, #96]
	ldp d10, d11, [sp, #112]
	ldp d12, d13, [sp, #128]
	ldp d14, d15, [sp, #144]
	add sp, sp, #160
	ret
	.size cudasim_ctx_swap, .-cudasim_ctx_swap
#else
#error "cudasim: no context switch for this architecture (x86-64 and aarch64 only)"
#endif
	.section .note.GNU-stack,"",%progbits
