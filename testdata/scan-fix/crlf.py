import sys

print("windows line endings")
sys.stdout.write("x\r\n")
