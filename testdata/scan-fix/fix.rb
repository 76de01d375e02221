# puts "in a comment"
def start(port)
  puts "listening on #{port}"
  print "ready"
  $stdout.puts "again"
  STDOUT.write("x\n")
  label = 'puts "in a string"'
  label
end
