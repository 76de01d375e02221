/* ProcessPrng for Wine 8 (Debian 12), which lacks it: Rust's std on Windows
 * (1.78 and later) takes its random bytes from bcryptprimitives.dll's
 * ProcessPrng. Built by scripts/windows-check.sh only when Wine cannot load
 * a Rust program without it, and placed beside the programs under test; it
 * forwards to RtlGenRandom (advapi32's SystemFunction036). Never shipped. */
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG chunk = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk; len -= chunk;
    }
    return TRUE;
}
